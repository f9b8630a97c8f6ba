#include "core/shell_quote.h"

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
