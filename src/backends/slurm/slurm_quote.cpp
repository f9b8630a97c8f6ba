#include "backends/slurm/slurm_quote.h"

namespace yard {

Result<std::string> directive_value(std::string_view value, std::string_view what) {
  std::string out;
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f)
      return err(std::string(what) + " " + excerpt(value) +
                 " contains a control character (e.g. a newline), which an #SBATCH line cannot hold");
    // Everything sbatch's directive splitter treats specially, and the shell-ish rest
    // for good measure: escaping a character that needed none is harmless.
    if (c == '\\' || c == '\'' || c == '"' || c == '#' || c == ' ' || c == '$' || c == '`') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace yard
