// JSON text written straight into a string, for big texts (the protocol's table of
// 100,000 jobs): no tree of values is built. Strings are bytes as core/byte_json.h
// carries them: valid UTF-8 as a JSON string, anything else as {"base64": ...}.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/byte_json.h"

namespace yard::json_out {

inline void string_utf8(std::string& out, std::string_view s) {
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  out += '"';
}

inline void bytes(std::string& out, std::string_view s) {
  if (is_valid_utf8(s)) return string_utf8(out, s);
  out += "{\"base64\":\"";
  out += base64_encode(s);
  out += "\"}";
}

inline void integer(std::string& out, std::int64_t v) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

// The shortest text that reads back as the same double.
inline void real(std::string& out, double v) {
  char buf[32];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

template <typename T>
void optional(std::string& out, const std::optional<T>& v) {
  if (!v) out += "null";
  else if constexpr (std::is_floating_point_v<T>) real(out, *v);
  else integer(out, *v);
}

}  // namespace yard::json_out
