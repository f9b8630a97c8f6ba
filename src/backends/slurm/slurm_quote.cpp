#include "backends/slurm/slurm_quote.h"

#include <cctype>

namespace yard {

Result<std::string> directive_value(std::string_view value, std::string_view what) {
  bool plain = !value.empty();
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f)
      return err(std::string(what) + " " + excerpt(value) +
                 " contains a control character (e.g. a newline), which an #SBATCH line cannot hold");
    plain = plain && (std::isalnum(u) || std::string_view("_%.,:/=+@-[]").find(c) != std::string_view::npos);
  }
  if (plain) return std::string(value);
  // In double quotes, where sbatch takes a backslash for an escape (outside them it does
  // not protect a blank).
  std::string out = "\"";
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace yard
