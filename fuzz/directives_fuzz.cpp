// libFuzzer target for the readers of other schedulers' directives (#$, #OAR, #PBS,
// #BSUB, Flux's) and of sbatch's options (each line's words, as getopt reads them). None may crash or hang,
// whatever the bytes; what they accept must hold together: every line they report is a
// line of the script, every message names the script, and every option taken is one of
// the table's, the other words kept in their order.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/sbatch_options.h"
#include "backends/flux/flux_directives.h"
#include "backends/lsf/lsf_directives.h"
#include "backends/oar/oar_directives.h"
#include "backends/pbs/pbs_directives.h"
#include "backends/sge/sge_directives.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

// What every reader's answer must hold: an error or warning names the script, a line it
// reports is one of the script's, and no line is reported without words.
void check_translation(const yard::Result<yard::TranslatedDirectives>& r, std::size_t lines) {
  if (!r) {
    check(r.error().rfind("fuzz.sh", 0) == 0);
    return;
  }
  std::size_t words = 0;
  for (const auto& line : r->directives.lines) {
    check(line.number >= 1 && static_cast<std::size_t>(line.number) <= lines);
    check(!line.words.empty());
    words += line.words.size();
  }
  check(words == r->directives.words.size());
  for (const auto& w : r->warnings) check(w.rfind("fuzz.sh", 0) == 0);
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
  // Each line's blank-separated words through sbatch's option reader.
  const std::vector<yard::KnownFlag> known = {{"ntasks", 'n', true}, {"mem", '\0', true}, {"requeue", '\0', false}};
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t nl = std::min(text.find('\n', start), text.size());
    std::vector<std::string> words;
    std::string word;
    for (char c : text.substr(start, nl - start)) {
      if (c == ' ' || c == '\t') {
        if (!word.empty()) words.push_back(std::move(word));
        word.clear();
      } else {
        word += c;
      }
    }
    if (!word.empty()) words.push_back(word);
    for (bool strict : {true, false})
      if (auto taken = yard::take_sbatch_options(words, known, strict)) {
        check(taken->rest.size() + taken->options.size() <= words.size());
        for (const auto& [name, value] : taken->options) check(yard::find_sbatch_option(name) != nullptr);
      }
    start = nl + 1;
  }
  (void)yard::has_sge_directives(text);
  (void)yard::has_oar_directives(text);
  // A script that has no directive of a kind by its detector gives that reader no words.
  const auto is_dir = [](const std::string& p) { return p.size() % 3 == 0; };
  auto pbs = yard::read_pbs_directives(text, "fuzz.sh", is_dir);
  check_translation(pbs, lines);
  if (pbs && !yard::has_pbs_directives(text)) check(pbs->directives.words.empty());
  auto lsf = yard::read_lsf_directives(text, "fuzz.sh", is_dir);
  check_translation(lsf, lines);
  if (lsf && !yard::has_lsf_directives(text)) check(lsf->directives.words.empty());
  auto flux = yard::read_flux_directives(text, "fuzz.sh");
  check_translation(flux, lines);
  if (flux && !yard::has_flux_directives(text)) check(flux->directives.words.empty());
  if (auto oar = yard::read_oar_directives(text, "fuzz.sh")) {
    for (const auto& line : oar->directives.lines) check(line.number >= 2 && static_cast<std::size_t>(line.number) <= lines);
    for (const auto& w : oar->warnings) check(w.rfind("fuzz.sh:", 0) == 0);
  } else {
    check(oar.error().rfind("fuzz.sh", 0) == 0);
  }
  return 0;
}
