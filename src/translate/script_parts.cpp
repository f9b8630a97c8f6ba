#include "translate/script_parts.h"

#include <algorithm>

#include "core/text.h"

namespace yard::translate {
namespace {

// A directive line that goes on with the next: one of a language that joins such lines.
bool continues(const ScriptLanguages& languages, std::string_view line) {
  if (!trim(line).ends_with('\\')) return false;
  for (const auto& l : languages.all())
    if (l->joins_continued_lines() && l->is_directive_line(line)) return true;
  return false;
}

// The end of the directives for sbatch (a line neither blank nor a comment), or for the
// source's reader.
bool is_command(std::string_view line, const ScriptLanguage* source) {
  if (source) return source->is_command(line);
  const std::string_view t = trim(line);
  return !t.empty() && t[0] != '#';
}

}  // namespace

bool is_any_directive_line(const ScriptLanguages& languages, std::string_view line) {
  for (const auto& l : languages.all())
    if (l->is_directive_line(line)) return true;
  return false;
}

ScriptParts split_script(const ScriptLanguages& languages, std::string_view script, const ScriptLanguage* source) {
  ScriptParts p;
  std::vector<std::string_view> lines;  // each with its '\n'
  for (std::size_t at = 0; at < script.size();) {
    const auto nl = script.find('\n', at);
    const std::size_t end = nl == std::string_view::npos ? script.size() : nl + 1;
    lines.push_back(script.substr(at, end - at));
    at = end;
  }
  auto text = [&](std::size_t i) { return lines[i].substr(0, lines[i].size() - (lines[i].ends_with('\n') ? 1 : 0)); };
  std::size_t first = 0;
  if (starts_with(script, "#!")) p.shebang = std::string(lines[first++]);
  // The directive block ends at the first command; in a language whose group of directives
  // may come after commands, it ends after that group.
  // Directive lines of languages that continue a line ending in a backslash go on with the
  // next line.
  std::size_t end = first;
  while (end < lines.size() && !is_command(text(end), source)) {
    bool more = continues(languages, text(end++));
    for (; more && end < lines.size(); ++end) more = trim(text(end)).ends_with('\\');
  }
  if (source && source->directives_follow_commands())
    for (std::size_t i = end; i < lines.size(); ++i)
      if (source->is_directive_line(text(i))) end = i + 1;
  bool inserted = false, continued = false;
  for (std::size_t i = first; i < end; ++i) {
    if (continued || is_any_directive_line(languages, text(i))) {
      continued = trim(text(i)).ends_with('\\') && (continued || continues(languages, text(i)));
      inserted = true;  // the target's directives go where the first one was
      continue;
    }
    // and before any command, a ":" line too (one target's reader reads on past it; no
    // other does)
    inserted = inserted || is_command(text(i), nullptr);
    (inserted ? p.after : p.before) += lines[i];
  }
  for (std::size_t i = end; i < lines.size(); ++i) p.body += lines[i];
  if (source && source->reads_after_commands())
    for (std::size_t i = end; i < lines.size(); ++i)
      if (source->is_directive_line(text(i))) p.body_directives.push_back(static_cast<int>(i) + 1);
  return p;
}

std::vector<int> read_in_body(const ScriptParts& parts, std::string_view script, const ScriptLanguage& target) {
  int number = 1;
  for (char c : script.substr(0, script.size() - parts.body.size())) number += c == '\n';
  return target.directives_in_body(parts.body, number);
}

std::string assemble(const ScriptParts& parts, const std::string& directives, const ScriptLanguage& target) {
  auto ended = [](std::string s) { return s.empty() || s.back() == '\n' ? s : s + "\n"; };
  // A kept comment the target's reader would take for a directive (one starting with its
  // sentinel).
  auto kept = [&](const std::string& lines) {
    const auto all = split(lines, '\n');
    if (std::all_of(all.begin(), all.end(), [&](std::string_view line) { return target.keeps_comment(line); }))
      return lines;
    std::string out;
    for (std::string_view line : all)
      if (target.keeps_comment(line)) out += std::string(line) + "\n";
    return lines.empty() ? lines : out.substr(0, out.size() - (lines.back() == '\n' ? 1 : 0));
  };
  std::string out = ended(parts.shebang + kept(parts.before));
  // A target whose reader starts at the second line, when the first is a comment, gets one.
  if (!target.opening_comment().empty() && !starts_with(out, "#")) out = std::string(target.opening_comment()) + out;
  out += directives + ended(kept(parts.after)) + parts.body;
  // A script of directives alone that the target has no words for: still a script.
  return out.empty() ? "# (nothing to run)\n" : out;
}

}  // namespace yard::translate
