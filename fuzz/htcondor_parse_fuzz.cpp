// libFuzzer target for the HTCondor readers (condor_submit's answers, condor_q's and
// condor_history's JSON and JSON lines) and its state map. None may crash or hang,
// whatever the bytes, and what they accept must hold together: ids are C.P of their
// submission C, nothing is both an exit code and a signal, an Unknown state names its
// raw number.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "backends/htcondor/htcondor_errors.h"
#include "backends/htcondor/htcondor_parse.h"
#include "backends/htcondor/htcondor_states.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto id = yard::parse_condor_submit(text))
    check(!id->empty() && id->find_first_not_of("0123456789") == std::string::npos);
  if (auto r = yard::parse_condor_ads(text)) {
    for (const auto& s : *r) {
      check(s.native_id.starts_with(s.submission_id + "."));
      check(!(s.exit_code && s.signal));
      const auto m = yard::map_htcondor_state(s);
      if (m.state == yard::JobState::Unknown) check(m.detail.find(s.raw_state) != std::string::npos);
    }
  }
  (void)yard::htcondor_transient_failure(1, text);
  return 0;
}
