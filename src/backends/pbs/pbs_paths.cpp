#include "backends/pbs/pbs_paths.h"

#include <cstdlib>
#include <utility>

#include "jobtext/directive_common.h"

namespace yard {
namespace {

// Each word with its pattern; "" for the two whose values are the directories.
const std::pair<std::string_view, std::string_view> kWords[] = {
    {"$PBS_JOBID", "%j"}, {"${PBS_JOBID}", "%j"}, {"$PBS_JOBNAME", "%x"}, {"${PBS_JOBNAME}", "%x"},
    {"$PBS_ARRAY_INDEX", "%a"}, {"${PBS_ARRAY_INDEX}", "%a"}, {"$PBS_ARRAYID", "%a"}, {"${PBS_ARRAYID}", "%a"},
    {"^array_index^", "%a"}, {"$USER", "%u"}, {"$HOSTNAME", "%N"}, {"$HOME", ""}, {"$PBS_O_WORKDIR", ""}};

// A directory's path as a pattern: its own '%' stays one.
std::string literal(std::string_view path) {
  std::string out;
  for (char c : path) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

}  // namespace

const std::vector<std::string_view>& pbs_path_words() {
  static const std::vector<std::string_view> words = [] {
    std::vector<std::string_view> out;
    for (auto [word, pattern] : kWords) out.push_back(word);
    return out;
  }();
  return words;
}

std::string pbs_path_pattern(std::string_view raw) {
  const char* home = std::getenv("HOME");
  const std::string cwd = directives::directory_variable("D", "");  // "D=/the/current/directory"
  std::vector<std::pair<std::string, std::string>> tokens;
  for (auto [word, pattern] : kWords)
    tokens.emplace_back(word, !pattern.empty() ? std::string(pattern)
                              : word == "$HOME"  ? literal(home ? home : "")
                                                 : literal(cwd.empty() ? "." : cwd.substr(2)));
  return directives::with_patterns(raw, tokens);
}

}  // namespace yard
