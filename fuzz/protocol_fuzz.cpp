// libFuzzer target for what crosses the daemon's socket and the store: job texts of
// arbitrary bytes must round-trip exactly through the JobSpec codec and the job host's
// launch plans, and any request line or plan text, however malformed, must be refused
// cleanly (an exception the daemon turns into a reply), never crash or abort.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/byte_json.h"
#include "core/job_spec.h"
#include "core/json_text.h"
#include "local/host_protocol.h"
#include "protocol/messages.h"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);

  // 1. Every text field carries the input; the spec comes back byte for byte.
  yard::JobSpec s;
  s.name = s.script = s.workdir = s.stdout_path = s.stderr_path = s.account = s.partition = s.qos = bytes;
  s.argv = {bytes, bytes.substr(size / 2)};
  s.env = {{bytes, bytes}, {"PLAIN", bytes.substr(0, size / 3)}};
  const std::string line = nlohmann::json(s).dump();  // never throws: texts are encoded
  auto back = nlohmann::json::parse(line).get<yard::JobSpec>();
  check(back.name == s.name && back.script == s.script && back.argv == s.argv && back.env == s.env &&
        back.workdir == s.workdir && back.account == s.account);

  // 2. The input as a request line: decoded or refused, never a crash; a decoded request
  // encodes and decodes again to the same operation. As a reply line: the same.
  if (auto decoded = yard::decode_request(bytes)) {
    auto again = yard::decode_request(yard::encode_request(*decoded));
    check(again.ok() && again->index() == decoded->index());
  }
  (void)yard::decode_submit_reply(bytes);
  (void)yard::decode_cancel_reply(bytes);
  (void)yard::decode_ping_reply(bytes);
  (void)yard::decode_jobs_reply(bytes);
  (void)yard::decode_job_reply(bytes);
  (void)yard::decode_logs_reply(bytes);
  (void)yard::decode_accounts_reply(bytes);
  (void)yard::decode_wait_reply(bytes);
  (void)yard::decode_watch_line(bytes);
  // A job whose texts are the input crosses as a table and comes back byte for byte.
  yard::JobRecord j;
  j.id = 1;
  j.name = j.reason = j.stdout_path = j.native_id = bytes;
  auto table = yard::decode_jobs_reply(yard::encode_reply(yard::JobsReply{{j}, 0}));
  check(table.ok() && table->jobs.size() == 1 && table->jobs[0].name == bytes && table->jobs[0].reason == bytes &&
        table->jobs[0].native_id == bytes);
  auto req = nlohmann::json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (!req.is_discarded()) {
    try {
      if (req.is_object() && req.contains("spec")) (void)req["spec"].get<yard::JobSpec>();
      (void)req.get<yard::JobSpec>();
    } catch (const nlohmann::json::exception&) {
    }
    (void)yard::dump_json(req);
  }

  // 3. Launch plans to the job host: bytes round-trip; any text decodes or is refused.
  yard::LaunchPlan p;
  p.argv = {bytes.empty() ? std::string("x") : bytes};
  p.env = {bytes};
  p.workdir = p.stdout_path = p.stderr_path = bytes;
  auto decoded = yard::decode_launch(yard::encode_launch(7, p, 0));
  check(decoded.plan.ok() && decoded.plan->argv == p.argv && decoded.plan->env == p.env &&
        decoded.plan->workdir == p.workdir);
  (void)yard::decode_launch(bytes);

  // 4. Shown to a person: escaped, never thrown.
  (void)yard::dump_json(nlohmann::json{{"name", bytes}});
  return 0;
}
