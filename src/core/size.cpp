#include "core/size.h"

#include <charconv>
#include <cstdio>

#include "core/text.h"

namespace yard {

Result<std::uint64_t> parse_memory_size(std::string_view text) {
  const std::string_view t = trim(text);
  auto bad = [&](const char* why) {
    return err("invalid memory size '" + std::string(text) + "': " + why +
               " (accepted: a number with an optional unit K, M, G or T, e.g. 500M, 4G; no unit means MB)");
  };
  std::uint64_t n = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  if (p == t.data()) return bad("it does not start with a number");
  if (ec != std::errc()) return bad("the number is too large");
  std::string unit = to_lower(t.substr(static_cast<std::size_t>(p - t.data())));
  std::uint64_t mult = 0;
  if (unit.empty()) {
    mult = 1ULL << 20;
  } else {
    const char u = unit[0];
    std::string_view suffix = std::string_view(unit).substr(1);
    if (!(suffix.empty() || suffix == "b" || suffix == "ib")) return bad("unknown unit");
    switch (u) {
      case 'k': mult = 1ULL << 10; break;
      case 'm': mult = 1ULL << 20; break;
      case 'g': mult = 1ULL << 30; break;
      case 't': mult = 1ULL << 40; break;
      case 'b': if (suffix.empty()) { mult = 1; break; } return bad("unknown unit");
      default: return bad("unknown unit");
    }
  }
  if (n > (~0ULL) / mult) return bad("the size is too large");
  return n * mult;
}

std::string format_bytes(std::uint64_t bytes) {
  static const char* units[] = {"B", "K", "M", "G", "T"};
  double v = static_cast<double>(bytes);
  int i = 0;
  while (v >= 1024 && i < 4) v /= 1024, ++i;
  char buf[32];
  if (v == static_cast<double>(static_cast<std::uint64_t>(v)))
    std::snprintf(buf, sizeof buf, "%llu%s", static_cast<unsigned long long>(v), units[i]);
  else
    std::snprintf(buf, sizeof buf, "%.1f%s", v, units[i]);
  return buf;
}

}  // namespace yard
