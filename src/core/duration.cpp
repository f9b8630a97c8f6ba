#include "core/duration.h"

#include <charconv>
#include <cstdlib>
#include <cstdio>
#include <vector>

#include "core/text.h"

namespace yard {
namespace {

Result<std::int64_t> number(std::string_view part, std::string_view whole) {
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
  if (part.empty() || ec != std::errc() || p != part.data() + part.size() || v < 0)
    return err("invalid walltime '" + std::string(whole) +
               "': expected MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS");
  return v;
}

Error out_of_range(std::string_view whole, const char* what) {
  return err("invalid walltime '" + std::string(whole) + "': " + what);
}

}  // namespace

Result<std::int64_t> parse_walltime(std::string_view text) {
  std::string_view t = trim(text);
  if (iequals(t, "unlimited") || iequals(t, "infinite")) return std::int64_t{0};
  if (t.empty()) return err("invalid walltime '': expected MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS");

  std::int64_t days = 0;
  bool has_days = false;
  std::string_view rest = t;
  if (auto dash = t.find('-'); dash != std::string_view::npos) {
    auto d = number(t.substr(0, dash), text);
    if (!d) return d.failure();
    days = *d;
    has_days = true;
    rest = t.substr(dash + 1);
  }
  std::vector<std::string_view> parts = split(rest, ':');
  if (parts.size() > 3) return Error{number("", text).error()};
  std::int64_t v[3] = {0, 0, 0};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    auto n = number(parts[i], text);
    if (!n) return n.failure();
    v[i] = *n;
  }
  // Map the fields onto hours, minutes, seconds by form.
  std::int64_t h = 0, m = 0, s = 0;
  const std::size_t n = parts.size();
  if (has_days) {
    h = v[0], m = v[1], s = v[2];
  } else if (n == 1) {
    m = v[0];
  } else if (n == 2) {
    m = v[0], s = v[1];
  } else {
    h = v[0], m = v[1], s = v[2];
  }
  // As Slurm, no field is bounded by the next: 0-24:00:00 is a day, 10:75:00 is 11:15:00.
  constexpr std::int64_t kMax = 365LL * 100 * 86400;
  // Each field is bounded before it is multiplied: "307445734561825861" minutes times 60
  // wraps to 44 seconds. Each term is then at most kMax, so the sum cannot overflow.
  if (days > 36500 || h > kMax / 3600 || m > kMax / 60 || s > kMax)
    return out_of_range(text, "longer than 100 years");
  const std::int64_t total = days * 86400 + h * 3600 + m * 60 + s;
  if (total > kMax) return out_of_range(text, "longer than 100 years");
  return total;
}

std::string format_walltime(std::int64_t seconds) {
  char buf[64];
  std::int64_t d = seconds / 86400, h = seconds / 3600 % 24, m = seconds / 60 % 60, s = seconds % 60;
  if (d > 0)
    std::snprintf(buf, sizeof buf, "%lld-%02lld:%02lld:%02lld", static_cast<long long>(d),
                  static_cast<long long>(h), static_cast<long long>(m), static_cast<long long>(s));
  else
    std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", static_cast<long long>(h),
                  static_cast<long long>(m), static_cast<long long>(s));
  return buf;
}

Result<double> parse_seconds(const std::string& text) {
  if (!text.empty()) {
    const char unit = text.back();
    const double scale = unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : 0;
    if (scale > 0) {
      char* end = nullptr;
      const std::string number = text.substr(0, text.size() - 1);
      const double v = std::strtod(number.c_str(), &end);
      if (!number.empty() && *end == '\0') return v * scale;
    }
  }
  auto w = parse_walltime(text);
  if (!w) return err("'" + text + "' is not a time (30s, 5m, 1h, or 1:00:00)");
  return static_cast<double>(*w);
}

}  // namespace yard
