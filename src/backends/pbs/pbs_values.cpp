#include "backends/pbs/pbs_values.h"

#include <charconv>
#include <ctime>
#include <set>

#include "core/text.h"

namespace yard {

std::optional<long long> pbs_integer(std::string_view s) {
  s = trim(s);
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> pbs_ctime(std::string_view text) {
  const std::string s(trim(text));
  if (s.empty()) return std::nullopt;
  std::tm tm{};
  const char* end = ::strptime(s.c_str(), "%a %b %d %H:%M:%S %Y", &tm);
  if (!end || *end != '\0') return std::nullopt;
  tm.tm_isdst = -1;
  const std::time_t t = std::mktime(&tm);
  if (t == static_cast<std::time_t>(-1)) return std::nullopt;
  return static_cast<double>(t);
}

std::optional<long long> pbs_duration(std::string_view text) {
  long long total = 0;
  int parts = 0;
  for (std::string_view part : split(trim(text), ':')) {
    auto v = pbs_integer(part);
    if (!v || *v < 0 || ++parts > 3) return std::nullopt;
    total = total * 60 + *v;
  }
  if (parts == 0) return std::nullopt;
  return total;
}

std::string pbs_hosts(std::string_view exec_host) {
  std::string out;
  std::set<std::string, std::less<>> seen;
  for (std::string_view chunk : split(exec_host, '+')) {
    std::string_view host = trim(chunk.substr(0, chunk.find('/')));
    if (host.empty() || !seen.insert(std::string(host)).second) continue;
    out += (out.empty() ? "" : ",") + std::string(host);
  }
  return out;
}

std::string_view pbs_attribute(const PbsAttributes& a, std::string_view key) {
  auto it = a.find(key);
  return it == a.end() ? std::string_view() : std::string_view(it->second);
}

bool pbs_used_its_walltime(const PbsAttributes& a) {
  const auto used = pbs_duration(pbs_attribute(a, "resources_used.walltime"));
  const auto limit = pbs_duration(pbs_attribute(a, "Resource_List.walltime"));
  return used && limit && *limit > 0 && *used >= *limit;
}

std::optional<long long> status_event(const NativeStatus& s, std::string_view key) {
  for (const auto& e : s.events) {
    if (e.size() <= key.size() || e.compare(0, key.size(), key) != 0 || e[key.size()] != '=') continue;
    if (auto v = pbs_integer(std::string_view(e).substr(key.size() + 1))) return v;
  }
  return std::nullopt;
}

bool has_status_event(const NativeStatus& s, std::string_view what) {
  for (const auto& e : s.events)
    if (e == what) return true;
  return false;
}

bool reason_says(const NativeStatus& s, std::string_view words) {
  return to_lower(s.reason).find(words) != std::string::npos;
}

}  // namespace yard
