// libFuzzer target for the PBS Pro readers (qsub's answer, qstat -F json, qstat -f text,
// the default table) and its state map. None may crash or hang, whatever the bytes, and
// what they accept must hold together: ids are N, N[] or N[I], an Unknown state keeps
// its raw text, nothing is both an exit code and a signal.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "backends/pbs/pbs_errors.h"
#include "backends/pbs/pbs_parse.h"
#include "backends/pbs/pbs_states.h"
#include "backends/pbs/pbs_queues.h"
#include "queue_listing_check.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void check_statuses(const yard::Result<std::vector<yard::NativeStatus>>& r) {
  if (!r) return;
  for (const auto& s : *r) {
    check(s.native_id.find('.') == std::string::npos);
    check(!(s.exit_code && s.signal));
    const auto m = yard::map_pbs_state(s);
    if (m.state == yard::JobState::Completed) check(s.raw_state == "F" || s.raw_state == "X");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto id = yard::parse_pbs_qsub(text)) check(!id->empty() && id->find_first_not_of("0123456789") == std::string::npos);
  check_statuses(yard::parse_pbs_qstat_json(text));
  check_statuses(yard::parse_pbs_qstat_full(text));
  check_statuses(yard::parse_pbs_qstat_table(text));
  (void)yard::pbs_usable_despite(153, text);
  (void)yard::pbs_transient_failure(1, text);
  check_queue_listing(yard::parse_pbs_queues(text));
  return 0;
}
