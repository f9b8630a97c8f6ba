#include "backends/slurm/slurm_quote.h"

#include <cstdio>

namespace yard {

std::string bash_quote(std::string_view value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'')
      out += "'\\''";
    else if (c == '\r')
      out += "'$'\\r''";
    else
      out += c;
  }
  out += '\'';
  return out;
}

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

std::string excerpt(std::string_view value, std::size_t max) {
  std::string out = "'";
  std::size_t n = 0;
  for (char c : value) {
    if (n++ == max) {
      out += "...";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20 || u >= 0x7f) {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

}  // namespace yard
