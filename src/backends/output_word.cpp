#include "backends/output_word.h"

#include "core/shell_quote.h"

namespace yard {

std::string output_word(const std::string& native, std::string_view index_variable) {
  std::string out, literal;
  auto flush = [&] {
    if (!literal.empty()) out += bash_quote(literal);
    literal.clear();
  };
  for (std::size_t i = 0; i < native.size(); ++i) {
    if (native[i] != '%' || i + 1 == native.size()) {
      literal += native[i];
      continue;
    }
    if (native[i + 1] == '%') {
      literal += '%';
      ++i;
      continue;
    }
    std::size_t k = i + 1;
    while (k < native.size() && native[k] >= '0' && native[k] <= '9') ++k;
    if (k < native.size() && native[k] == 'a') {
      flush();
      const std::string width = native.substr(i + 1, k - i - 1);
      out += "\"$(printf %0" + (width.empty() ? std::string("1") : width) + "d \"$" + std::string(index_variable) +
             "\")\"";
      i = k;
      continue;
    }
    literal += native[i];
  }
  flush();
  return out.empty() ? "''" : out;
}

}  // namespace yard
