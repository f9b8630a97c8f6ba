// libFuzzer target for the Flux readers (submit answers, flux jobs --json and job-list's
// JSON lines, F58 ids) and its state map. None may crash or hang, whatever the bytes,
// and what they accept must hold together: every id is ASCII F58 and reads back to the
// same FLUID, nothing is both an exit code and a signal, an Unknown state keeps its raw
// text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "backends/flux/flux_errors.h"
#include "backends/flux/flux_ids.h"
#include "backends/flux/flux_parse.h"
#include "backends/flux/flux_states.h"
#include "backends/flux/flux_queues.h"
#include "queue_listing_check.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void check_id(const std::string& id) {
  auto fluid = yard::flux_fluid(id);
  check(id.starts_with("f") && fluid && yard::flux_f58(*fluid) == id);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto ids = yard::parse_flux_submit(text))
    for (const auto& id : *ids) check_id(id);
  if (auto r = yard::parse_flux_jobs(text)) {
    for (const auto& s : *r) {
      check_id(s.native_id);
      check(!(s.exit_code && s.signal));
      const auto m = yard::map_flux_state(s);
      if (m.state == yard::JobState::Unknown) check(m.detail == s.raw_state);
    }
  }
  (void)yard::flux_ascii_id(text.substr(0, 30));
  (void)yard::flux_usable_despite(1, text);
  (void)yard::flux_transient_failure(1, text);
  check_queue_listing(yard::parse_flux_queues(text));
  return 0;
}
