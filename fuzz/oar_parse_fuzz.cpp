// libFuzzer target for the OAR readers (oarsub's output, oarstat -J) and its state map.
// None may crash or hang, whatever the bytes, and what they accept must hold together:
// ids are digits, a state is never empty, an exit status and a signal never both, an
// Unknown state keeps its raw text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "backends/oar/oar_parse.h"
#include "backends/oar/oar_states.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

bool digits(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto sub = yard::parse_oarsub(text, text)) {
    check(!sub->job_ids.empty());
    for (auto& id : sub->job_ids) check(digits(id));
    check(sub->array_id.empty() || digits(sub->array_id));
  }
  if (auto statuses = yard::parse_oarstat_json(text)) {
    for (const auto& s : *statuses) {
      check(digits(s.native_id));
      check(!s.raw_state.empty());
      check(!(s.exit_code && s.signal));
      const auto m = yard::map_oar_state(s);
      if (m.state == yard::JobState::Unknown) check(m.detail == s.raw_state);
    }
  }
  return 0;
}
