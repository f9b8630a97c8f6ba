// libFuzzer target for the readers of other schedulers' directives (#$, #OAR). None may
// crash or hang, whatever the bytes; what they accept must hold together: every line
// they report is a line of the script, and every message names the script.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "directives/oar_directives.h"
#include "directives/sge_directives.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::size_t lines = 1;
  for (char c : text) lines += c == '\n';
  auto r = yard::read_sge_directives(text, "fuzz.sh", [](const std::string& p) { return p.size() % 2 == 0; });
  if (!r) {
    check(r.error().rfind("fuzz.sh", 0) == 0);
    return 0;
  }
  for (const auto& line : r->directives.lines) {
    check(line.number >= 1 && static_cast<std::size_t>(line.number) <= lines);
    check(!line.words.empty());
  }
  for (const auto& w : r->warnings) check(w.rfind("fuzz.sh:", 0) == 0);
  (void)yard::has_sge_directives(text);
  (void)yard::has_oar_directives(text);
  if (auto oar = yard::read_oar_directives(text, "fuzz.sh")) {
    for (const auto& line : oar->directives.lines) check(line.number >= 2 && static_cast<std::size_t>(line.number) <= lines);
    for (const auto& w : oar->warnings) check(w.rfind("fuzz.sh:", 0) == 0);
  } else {
    check(oar.error().rfind("fuzz.sh", 0) == 0);
  }
  return 0;
}
