#include "core/text.h"

#include <algorithm>
#include <cctype>

namespace yard {

std::string_view trim(std::string_view s) {
  auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    auto pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string pad_left(std::string_view s, std::size_t width) {
  return std::string(s.size() < width ? width - s.size() : 0, ' ') + std::string(s);
}

std::string pad_right(std::string_view s, std::size_t width) {
  return std::string(s) + std::string(s.size() < width ? width - s.size() : 0, ' ');
}

namespace {

// The length of the valid UTF-8 character that starts `s`, or 0 when its first byte
// starts none (RFC 3629, table 3-7 of the Unicode standard: the second byte's range
// depends on the first, which excludes overlong forms and surrogates).
std::size_t utf8_length(std::string_view s) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b = byte(0);
  if (b < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (b >= 0xC2 && b <= 0xDF) n = 2;
  else if (b == 0xE0) n = 3, lo = 0xA0;
  else if (b == 0xED) n = 3, hi = 0x9F;
  else if (b >= 0xE1 && b <= 0xEF) n = 3;
  else if (b == 0xF0) n = 4, lo = 0x90;
  else if (b == 0xF4) n = 4, hi = 0x8F;
  else if (b >= 0xF1 && b <= 0xF3) n = 4;
  else return 0;
  if (s.size() < n || byte(1) < lo || byte(1) > hi) return 0;
  for (std::size_t i = 2; i < n; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  return n;
}

std::string hex_escape(unsigned char b) {
  static const char* digits = "0123456789abcdef";
  return std::string{'\\', 'x', digits[b >> 4], digits[b & 15]};
}

// Splits `s` into the units a reader sees: a character, or the escape that replaces a
// byte or a control character. `visit(text, is_escape)` is called once per unit.
template <typename Visit>
void for_each_unit(std::string_view s, bool escape_controls, Visit visit) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_length(s.substr(i));
    const auto b = static_cast<unsigned char>(s[i]);
    if (n == 0) {
      visit(hex_escape(b), true);
      i += 1;
      continue;
    }
    const bool c0 = n == 1 && (b < 0x20 || b == 0x7F);
    const bool c1 = n == 2 && b == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0;
    if (escape_controls && c0) {
      visit(hex_escape(b), true);
    } else if (escape_controls && c1) {
      // U+0080..U+009F is C2 80..C2 9F: the code point's low byte is the second byte.
      visit("\\u00" + hex_escape(static_cast<unsigned char>(s[i + 1])).substr(2), true);
    } else {
      visit(std::string(s.substr(i, n)), false);
    }
    i += n;
  }
}

}  // namespace

bool is_valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_length(s.substr(i));
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string escape_invalid_utf8(std::string_view s) {
  if (is_valid_utf8(s)) return std::string(s);
  std::string out;
  for_each_unit(s, false, [&](const std::string& unit, bool) { out += unit; });
  return out;
}

std::string escape_for_terminal(std::string_view s) {
  std::string out;
  for_each_unit(s, true, [&](const std::string& unit, bool) { out += unit; });
  return out;
}

std::string terminal_cell(std::string_view s, std::size_t width) {
  std::string out;
  std::size_t used = 0;
  bool full = false;
  for_each_unit(s, true, [&](const std::string& unit, bool is_escape) {
    const std::size_t w = is_escape ? unit.size() : 1;
    if (full || used + w > width) {
      full = true;  // nothing after a unit that did not fit, so the cut is a prefix
      return;
    }
    out += unit;
    used += w;
  });
  out.append(width - used, ' ');
  return out;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace yard
