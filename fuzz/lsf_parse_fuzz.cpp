// libFuzzer target for the LSF readers (bsub's answer, bjobs -json, the bjobs -w table,
// LSF's times) and its state map. None may crash or hang, whatever the bytes, and what
// they accept must hold together: ids are N or N[I], nothing is both an exit code and a
// signal, an Unknown state keeps its raw text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "backends/lsf/lsf_errors.h"
#include "backends/lsf/lsf_parse.h"
#include "backends/lsf/lsf_states.h"
#include "backends/lsf/lsf_queues.h"
#include "queue_listing_check.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void check_statuses(const yard::Result<std::vector<yard::NativeStatus>>& r) {
  if (!r) return;
  for (const auto& s : *r) {
    check(!s.native_id.empty() && s.native_id.find_first_not_of("0123456789[]") == std::string::npos);
    check(!(s.exit_code && s.signal));
    const auto m = yard::map_lsf_state(s);
    if (m.state == yard::JobState::Unknown) check(m.detail == s.raw_state);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto id = yard::parse_bsub(text)) check(!id->empty() && id->find_first_not_of("0123456789") == std::string::npos);
  check_statuses(yard::parse_bjobs_json(text, 1'700'000'000));
  check_statuses(yard::parse_bjobs_table(text));
  (void)yard::lsf_time(text.substr(0, 40), 1'700'000'000);
  (void)yard::lsf_usable_despite(255, text);
  (void)yard::lsf_transient_failure(255, text);
  check_queue_listing(yard::parse_lsf_queues(text));
  return 0;
}
