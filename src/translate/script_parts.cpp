#include "translate/script_parts.h"

#include <cctype>

#include "core/text.h"
#include "directives/flux_directives.h"

namespace yard::translate {
namespace {

// "#SBATCH", "#$", "#OAR" in column 1, then a blank or the end of the line.
bool column_one(std::string_view line, std::string_view tag, bool end_allowed) {
  if (!starts_with(line, tag)) return false;
  if (line.size() == tag.size()) return end_allowed;
  return line[tag.size()] == ' ' || line[tag.size()] == '\t';
}

bool pbs(std::string_view line) {
  const std::string_view t = trim(line);
  return starts_with(t, "#PBS") && (t.size() == 4 || t[4] == ' ' || t[4] == '\t' || t[4] == '-');
}

bool lsf(std::string_view line) {
  std::string_view t = trim(line);
  if (t.empty() || t[0] != '#') return false;
  t = trim(t.substr(1));
  return starts_with(t, "BSUB") && starts_with(trim(t.substr(4)), "-");
}

// Flux's sentinel before an option (a directive); any sentinel is one to flux batch.
bool flux(std::string_view line) {
  auto s = flux_sentinel(line);
  return s && starts_with(trim(s->rest), "-");
}

// The end of the directives for sbatch: a line neither blank nor a comment; for qsub of
// PBS, a line starting with ':' is not one either.
bool is_command(std::string_view line, bool pbs_reads = false) {
  const std::string_view t = trim(line);
  return !t.empty() && t[0] != '#' && !(pbs_reads && line[0] == ':');
}

}  // namespace

bool is_directive_line(std::string_view line, std::string_view kind) {
  const bool any = kind.empty();
  return ((any || kind == "slurm") && column_one(line, "#SBATCH", true)) ||
         ((any || kind == "sge") && column_one(line, "#$", true)) ||
         ((any || kind == "oar") && column_one(line, "#OAR", false)) || ((any || kind == "pbs") && pbs(line)) ||
         ((any || kind == "lsf") && lsf(line)) || ((any || kind == "flux") && flux(line));
}

ScriptParts split_script(std::string_view script, std::string_view kind) {
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
  // The directive block ends at the first command; a Flux script's group of directives
  // may come after commands, and ends it there.
  // #PBS and #BSUB lines ending in a backslash go on with the next line.
  auto continues = [&](std::size_t i) { return (pbs(text(i)) || lsf(text(i))) && trim(text(i)).ends_with('\\'); };
  std::size_t end = first;
  while (end < lines.size() && !is_command(text(end), kind == "pbs")) {
    bool more = continues(end++);
    for (; more && end < lines.size(); ++end) more = trim(text(end)).ends_with('\\');
  }
  if (kind == "flux")
    for (std::size_t i = end; i < lines.size(); ++i)
      if (flux(text(i))) end = i + 1;
  bool inserted = false, continued = false;
  for (std::size_t i = first; i < end; ++i) {
    if (continued || is_directive_line(text(i), "")) {
      continued = trim(text(i)).ends_with('\\') && (continued || pbs(text(i)) || lsf(text(i)));
      inserted = true;  // the target's directives go where the first one was
      continue;
    }
    // and before any command, a ":" line too (qsub reads on past one; no other target does)
    inserted = inserted || is_command(text(i));
    (inserted ? p.after : p.before) += lines[i];
  }
  for (std::size_t i = end; i < lines.size(); ++i) p.body += lines[i];
  if (kind == "sge" || kind == "lsf" || kind == "oar" || kind == "flux")
    for (std::size_t i = end; i < lines.size(); ++i)
      if (is_directive_line(text(i), kind)) p.body_directives.push_back(static_cast<int>(i) + 1);
  return p;
}

std::vector<int> read_in_body(const ScriptParts& parts, std::string_view script, std::string_view target) {
  std::vector<int> out;
  if (target != "sge" && target != "lsf" && target != "oar" && target != "flux" && target != "pbs") return out;
  int number = 1;
  for (char c : script.substr(0, script.size() - parts.body.size())) number += c == '\n';
  bool read = true;  // qsub reads on past ':' lines (the body's first line is a command to sbatch)
  for (std::string_view line : split(parts.body, '\n')) {
    read = read && (target != "pbs" || !is_command(line, true));
    if (target == "flux" ? flux_sentinel(line).has_value() : read && is_directive_line(line, target)) out.push_back(number);
    ++number;
  }
  return out;
}

std::string assemble(const ScriptParts& parts, const std::string& directives, std::string_view target) {
  auto ended = [](std::string s) { return s.empty() || s.back() == '\n' ? s : s + "\n"; };
  // flux batch reads a kept comment that looks like a sentinel as a directive.
  auto kept = [&](const std::string& lines) {
    if (target != "flux") return lines;
    std::string out;
    for (std::string_view line : split(lines, '\n'))
      if (!flux_sentinel(line)) out += std::string(line) + "\n";
    return lines.empty() ? lines : out.substr(0, out.size() - (lines.back() == '\n' ? 1 : 0));
  };
  std::string out = ended(parts.shebang + kept(parts.before));
  // oarsub -S reads #OAR lines from the second line on, when the first is a comment.
  if (target == "oar" && !starts_with(out, "#")) out = "# OAR job (oarsub -S reads the #OAR lines below)\n" + out;
  out += directives + ended(kept(parts.after)) + parts.body;
  // A script of directives alone that the target has no words for: still a script.
  return out.empty() ? "# (nothing to run)\n" : out;
}

}  // namespace yard::translate
