#include "backends/pbs/pbs_lines.h"

#include "core/text.h"

namespace yard {

std::optional<std::string_view> pbs_directive_text(std::string_view line) {
  const std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line.substr(i, 4) != "#PBS") return std::nullopt;
  const std::string_view rest = line.substr(i + 4);
  if (!rest.empty() && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '-') return std::nullopt;
  return rest;
}

bool pbs_is_command(std::string_view line) {
  const std::string_view t = trim(line);
  return !t.empty() && t[0] != '#' && line[0] != ':';
}

}  // namespace yard
