// A batch script's part in `yard submit`: its text, read once, and its #SBATCH
// directives merged under the command line's flags.
#include <fstream>
#include <sstream>

#include "cli/submit_internal.h"
#include "core/batch_directives.h"

namespace yard {

Result<std::string> read_script(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return err("cannot read script '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Result<SubmitFlags> merge_script_directives(const SubmitFlags& first, const std::vector<std::vector<std::string>>& groups,
                                            const std::string& script, bool& json) {
  const std::string& path = first.positional[0];
  auto d = read_batch_directives(script, path);
  if (!d) return Error{d.error()};
  if (d->words.empty() && d->components.empty()) return first;
  // Directive words are options only; the script and its arguments come from the command line.
  try {
    SubmitFlags probe;
    parse_words(*submit_app(probe, json), d->words);
    if (!probe.positional.empty())
      return err(path + ": invalid directive found in batch script: " + probe.positional[0]);
  } catch (const CLI::ParseError& e) {
    return err(path + ": in #SBATCH directives: " + e.what());
  }
  SubmitFlags merged;
  std::vector<std::string> words = d->words;
  words.insert(words.end(), groups[0].begin(), groups[0].end());
  try {
    parse_words(*submit_app(merged, json), words);
  } catch (const CLI::ParseError& e) {
    return err(e.what());
  }
  merged.positional = first.positional;
  merged.script_text = first.script_text;
  const std::size_t cli_components = groups.size() - 1;
  const std::size_t n = std::max(d->components.size(), cli_components);
  for (std::size_t k = 0; k < n; ++k) {
    std::vector<std::string> cw;
    if (k < d->components.size()) {
      ComponentFlags probe;
      std::vector<std::string> positional;
      try {
        parse_words(*component_app(probe, positional), d->components[k]);
      } catch (const CLI::ParseError& e) {
        return err(path + ": in #SBATCH directives: " + component_error(k + 1, e.what()).message);
      }
      if (!positional.empty()) return err(path + ": invalid directive found in batch script: " + positional[0]);
      cw = d->components[k];
    }
    if (k < cli_components) cw.insert(cw.end(), groups[k + 1].begin(), groups[k + 1].end());
    ComponentFlags c;
    std::vector<std::string> positional;
    try {
      parse_words(*component_app(c, positional), cw);
    } catch (const CLI::ParseError& e) {
      return component_error(k + 1, e.what());
    }
    merged.components.push_back(c);
  }
  return merged;
}

}  // namespace yard
