// libFuzzer target for the Grid Engine readers (qsub -terse, qstat -xml, qacct, task
// ranges) and its state map. None may crash or hang, whatever the bytes, and what they
// accept must hold together: ids are N or N.T, a state is never empty, an Unknown state
// keeps its raw text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "backends/sge/sge_parse.h"
#include "backends/sge/sge_states.h"
#include "backends/sge/sge_queues.h"
#include "queue_listing_check.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

bool sge_id(const std::string& id) {
  const auto dot = id.find('.');
  auto digits = [](std::string_view s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
  };
  if (dot == std::string::npos) return digits(id);
  return digits(std::string_view(id).substr(0, dot)) && digits(std::string_view(id).substr(dot + 1));
}

void check_statuses(const yard::Result<std::vector<yard::NativeStatus>>& r) {
  if (!r) return;
  for (const auto& s : *r) {
    check(sge_id(s.native_id));
    check(!s.raw_state.empty());
    check(!(s.exit_code && s.signal));
    const auto m = yard::map_sge_state(s);
    if (m.state == yard::JobState::Unknown) check(m.detail == s.raw_state);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto id = yard::parse_qsub_terse(text)) check(sge_id(*id));
  check_statuses(yard::parse_qstat_xml(text));
  check_statuses(yard::parse_qacct(text));
  if (auto ids = yard::parse_task_ranges(text, 100'000)) check(ids->size() <= 100'000);
  yard::NativeStatus s;
  s.raw_state = std::string(text.substr(0, 64));
  const auto m = yard::map_sge_state(s);
  if (m.state == yard::JobState::Unknown) check(m.detail == s.raw_state);
  check_queue_listing(yard::parse_sge_queues(text));
  return 0;
}
