#include "core/batch_directives.h"

#include "core/text.h"

namespace yard {

Result<std::vector<std::string>> split_directive_words(std::string_view line) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < line.size() &&
                 (line[i + 1] == '"' || line[i + 1] == '\\')) {
        cur += line[++i];
      } else {
        cur += c;
      }
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      cur += line[++i];
      in_word = true;
    } else if (c == '#') {
      break;  // unquoted # starts a comment, even mid-word
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(std::move(cur)), cur.clear(), in_word = false;
    } else {
      cur += c;
      in_word = true;
    }
  }
  if (quote) return err(std::string("unmatched ") + (quote == '"' ? "double" : "single") + " quote");
  if (in_word) words.push_back(std::move(cur));
  return words;
}

Result<ScriptDirectives> read_batch_directives(std::string_view script, std::string_view origin) {
  ScriptDirectives out;
  out.has_shebang = starts_with(script, "#!");
  if (script.find('\0') != std::string_view::npos)
    return err(std::string(origin) + ": the script contains a NUL byte");
  int lineno = 0, last_line = 0;
  for (std::string_view line : split(script, '\n')) {
    ++lineno;
    if (!line.empty() && line.back() == '\r')
      return err(std::string(origin) + ":" + std::to_string(lineno) +
                 ": DOS line break (\\r\\n); convert the script with dos2unix");
    std::string_view t = trim(line);
    if (t.empty()) continue;
    if (t[0] != '#') break;  // first command: later directives are ignored, as in sbatch
    if (!starts_with(line, "#SBATCH")) continue;
    std::string_view rest = line.substr(7);
    if (!rest.empty() && rest[0] != ' ' && rest[0] != '\t') continue;  // e.g. #SBATCHX
    auto words = split_directive_words(rest);
    if (!words)
      return err(std::string(origin) + ":" + std::to_string(lineno) + ": " + words.error());
    auto begin = words->begin();
    if (begin != words->end() && (*begin == "hetjob" || *begin == "packjob")) {
      auto& last = out.components.empty() ? out.words : out.components.back();
      if (last.empty())
        return err(std::string(origin) + ":" + std::to_string(lineno) + ": component " +
                   std::to_string(out.components.size()) + " of the heterogeneous job has no directives before '" +
                   *begin + "'");
      out.components.emplace_back();
      ++begin;
    }
    auto& into = out.components.empty() ? out.words : out.components.back();
    if (begin != words->end())
      out.lines.push_back({lineno, out.components.size(), std::vector<std::string>(begin, words->end())});
    for (auto it = begin; it != words->end(); ++it) into.push_back(std::move(*it));
    last_line = lineno;
  }
  if (!out.components.empty() && out.components.back().empty())
    return err(std::string(origin) + ":" + std::to_string(last_line) + ": component " +
               std::to_string(out.components.size()) + " of the heterogeneous job has no directives after its '#SBATCH hetjob'");
  return out;
}

}  // namespace yard
