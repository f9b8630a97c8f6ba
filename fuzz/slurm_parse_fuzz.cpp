// libFuzzer target for the Slurm dialect's readers of scheduler output (sbatch, squeue,
// sacct), its state map, native names and batch script writer. None may crash or
// hang, whatever the bytes, and what they accept must hold together: parsed ids are
// Slurm ids, an UNKNOWN state keeps its raw text, a generated script never holds a
// DOS line break or a NUL.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "backends/slurm/slurm_allocation.h"
#include "backends/slurm/slurm_dialect.h"
#include "backends/slurm/slurm_errors.h"
#include "backends/slurm/slurm_parse.h"
#include "backends/slurm/slurm_partitions.h"
#include "queue_listing_check.h"
#include "core/uid.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void check_statuses(const yard::SlurmDialect& d, const yard::Result<std::vector<yard::NativeStatus>>& r) {
  if (!r) return;
  for (const auto& s : *r) {
    check(yard::is_slurm_job_id(s.native_id));
    check(!s.raw_state.empty());
    check(s.reason != "None");
    check(!(s.exit_code && s.signal));
    auto m = d.map_state(s);
    if (m.state == yard::JobState::Unknown) check(m.detail == s.raw_state);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const yard::SlurmDialect d;

  if (auto id = d.parse_submit(text)) {
    check(!id->empty());
    check(id->find_first_not_of("0123456789") == std::string::npos);
  }
  check_statuses(d, d.parse_poll(text));
  check_statuses(d, d.parse_history(text));
  if (auto a = yard::parse_scontrol_job(text)) check(!a->job_id.empty() && a->nodes >= 0 && a->cpus >= 0);
  (void)yard::slurm_transient_failure(static_cast<int>(size % 256), text);

  yard::NativeStatus raw;
  raw.raw_state = std::string(text);
  auto m = d.map_state(raw);
  if (m.state == yard::JobState::Unknown) check(m.detail == raw.raw_state);

  const std::string uid = "yd0123456789abcdef";
  check(d.uid_from_native_name(d.native_name(uid, text)) == uid);
  if (auto u = d.uid_from_native_name(text)) check(yard::is_uid(*u));

  yard::JobSpec spec;
  spec.name = "fuzz";
  spec.workdir = "/w";
  spec.argv = {"/bin/true", std::string(text)};
  spec.env["X"] = std::string(text);
  spec.partition = std::string(text.substr(0, 32));
  if (size % 2) spec.script = "#!/bin/sh\n" + std::string(text);
  if (auto script = d.batch_script(spec, {uid, "/o/%j.out", std::string(text.substr(0, 16)), {}, {}})) {
    check(script->find("\r\n") == std::string::npos);
    check(script->find('\0') == std::string::npos);
  }
  check_queue_listing(yard::parse_slurm_partitions(text));
  return 0;
}
