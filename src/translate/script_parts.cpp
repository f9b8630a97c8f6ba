#include "translate/script_parts.h"

#include <cctype>

#include "core/text.h"

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

// RFC 36's sentinel (a prefix of punctuation and blanks, flux: or FLUX:) before an option.
bool flux(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size()) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (std::isalnum(c) || c == '_' || c >= 0x80) break;
    ++i;
  }
  const std::string_view tag = line.substr(i, 5);
  return (tag == "flux:" || tag == "FLUX:") && starts_with(trim(line.substr(i + 5)), "-");
}

bool is_command(std::string_view line) {
  const std::string_view t = trim(line);
  return !t.empty() && t[0] != '#';
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
  std::size_t at = 0;
  auto next_line = [&]() {
    const auto nl = script.find('\n', at);
    const std::size_t end = nl == std::string_view::npos ? script.size() : nl + 1;
    const std::string_view line = script.substr(at, end - at);
    at = end;
    return line;
  };
  if (starts_with(script, "#!")) p.shebang = std::string(next_line());
  bool seen = false, continued = false;
  while (at < script.size()) {
    const std::size_t start = at;
    std::string_view line = next_line();
    std::string_view text = line.substr(0, line.size() - (line.ends_with('\n') ? 1 : 0));
    if (continued || is_directive_line(text, "")) {
      // #PBS and #BSUB lines ending in a backslash go on with the next line.
      continued = trim(text).ends_with('\\') && (continued || pbs(text) || lsf(text));
      seen = true;
      continue;
    }
    if (is_command(text)) {
      at = start;
      break;
    }
    (seen ? p.after : p.before) += line;
  }
  p.body = std::string(script.substr(at));
  if (kind == "sge" || kind == "lsf" || kind == "oar" || kind == "flux") {
    int number = 1;
    for (char c : script.substr(0, at)) number += c == '\n';
    for (std::string_view line : split(p.body, '\n')) {
      if (is_directive_line(line, kind)) p.body_directives.push_back(number);
      ++number;
    }
  }
  return p;
}

std::string assemble(const ScriptParts& parts, const std::string& directives, std::string_view target) {
  auto ended = [](std::string s) { return s.empty() || s.back() == '\n' ? s : s + "\n"; };
  std::string out = ended(parts.shebang + parts.before);
  // oarsub -S reads #OAR lines from the second line on, when the first is a comment.
  if (target == "oar" && !starts_with(out, "#")) out = "# OAR job (oarsub -S reads the #OAR lines below)\n" + out;
  return out + directives + ended(parts.after) + parts.body;
}

}  // namespace yard::translate
