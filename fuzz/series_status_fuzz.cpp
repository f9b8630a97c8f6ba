// libFuzzer target for the text a flow's grouped steps leave and give: a step's status
// file as the daemon reads it (backends/series_steps.h: written by the carrier, but on a
// shared filesystem anyone may damage it), and a step's command text as the local
// backend decides whether it needs a shell (core/shell_words.h). Nothing may crash, and
// words found must be the text's own, without blanks.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "backends/series_steps.h"
#include "core/shell_words.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)yard::parse_series_status(text);
  if (auto words = yard::simple_shell_words(text)) {
    if (words->empty()) std::abort();
    for (const auto& w : *words)
      if (w.empty() || w.find(' ') != std::string::npos || text.find(w) == std::string::npos) std::abort();
  }
  return 0;
}
