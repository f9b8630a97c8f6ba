// libFuzzer target for the Torque readers (qstat -x XML, qstat -f text) and its state
// map. None may crash or hang, whatever the bytes, and what they accept must hold
// together: ids are N, N[] or N[I], nothing is both an exit code and a signal, only a C
// job completes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "backends/torque/torque_errors.h"
#include "backends/torque/torque_parse.h"
#include "backends/torque/torque_states.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void check_statuses(const yard::Result<std::vector<yard::NativeStatus>>& r) {
  if (!r) return;
  for (const auto& s : *r) {
    check(s.native_id.find('.') == std::string::npos);
    check(!(s.exit_code && s.signal));
    if (yard::map_torque_state(s).state == yard::JobState::Completed) check(s.raw_state == "C");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_statuses(yard::parse_torque_qstat_xml(text));
  check_statuses(yard::parse_torque_qstat_full(text));
  (void)yard::torque_usable_despite(153, text);
  (void)yard::torque_transient_failure(1, text);
  return 0;
}
