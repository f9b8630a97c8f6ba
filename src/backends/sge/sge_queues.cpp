#include "backends/sge/sge_queues.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "core/text.h"

namespace yard {
namespace {

// "INFINITY": 0 (none); "01:30:00", "90:00:00", "5400": seconds.
std::optional<std::int64_t> sge_time(std::string_view v) {
  v = trim(v);
  if (v == "INFINITY" || v == "infinity") return 0;
  std::int64_t total = 0;
  int parts = 0;
  while (true) {
    const std::size_t colon = v.find(':');
    const std::string_view part = v.substr(0, colon);
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), n);
    if (ec != std::errc() || end != part.data() + part.size() || n < 0 || ++parts > 3) return std::nullopt;
    if (total > (INT64_MAX - n) / 60) return std::nullopt;
    total = total * 60 + n;
    if (colon == std::string_view::npos) break;
    v = v.substr(colon + 1);
  }
  return total;
}

}  // namespace

std::vector<std::string> sge_queues_argv() { return {"qconf", "-sq", "*"}; }

Result<QueueListing> parse_sge_queues(std::string_view out) {
  QueueListing listing;
  listing.complete = true;  // '*': every cluster queue
  QueueLimits* queue = nullptr;
  std::size_t line_no = 0;
  for (const std::string_view line : split(out, '\n')) {
    ++line_no;
    const std::string where = "qconf -sq, line " + std::to_string(line_no) + ": ";
    const std::string_view text = trim(line);
    if (text.empty() || line.front() == ' ' || line.front() == '\t') continue;  // a continued list
    const std::size_t space = text.find_first_of(" \t");
    const std::string_view key = text.substr(0, space);
    const std::string_view value = space == std::string_view::npos ? std::string_view() : trim(text.substr(space));
    if (key == "qname") {
      if (value.empty()) return err(where + "a queue without a name");
      queue = &listing.queues[std::string(value)];
      continue;
    }
    if (!queue) return err(where + "'" + std::string(key) + "' before any qname line");
    if (key != "h_rt") continue;
    // The queue's value, then [host=value] overrides.
    std::int64_t longest = 0;
    std::string_view rest = value;
    while (!rest.empty()) {
      std::size_t comma = rest.find(',');
      if (rest.front() == '[') comma = rest.find(']') == std::string_view::npos ? rest.size() : rest.find(']') + 1;
      std::string_view item = rest.substr(0, std::min(comma, rest.size()));
      rest = comma >= rest.size() ? std::string_view() : rest.substr(comma + (rest[comma] == ',' ? 1 : 0));
      if (!rest.empty() && rest.front() == ',') rest.remove_prefix(1);
      if (item.empty()) return err(where + "h_rt " + std::string(value) + ": an empty value in the list");
      if (item.front() == '[') {
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos || item.back() != ']') return err(where + "h_rt " + std::string(value) + ": expected [host=time]");
        item = item.substr(eq + 1, item.size() - eq - 2);
      }
      auto t = sge_time(item);
      if (!t) return err(where + "h_rt " + std::string(value) + ": expected INFINITY or HH:MM:SS");
      if (*t == 0) {  // unlimited somewhere: no limit a job is sure to meet
        longest = 0;
        break;
      }
      longest = std::max(longest, *t);
    }
    queue->time_s = longest;
  }
  return listing;
}

std::vector<std::string> sge_config_argv() { return {"qconf", "-sconf"}; }

std::optional<std::int64_t> parse_sge_max_aj_tasks(std::string_view out) {
  for (std::size_t at = 0; at < out.size();) {
    const std::size_t nl = std::min(out.find('\n', at), out.size());
    const std::string_view line = out.substr(at, nl - at);
    at = nl + 1;
    if (line.rfind("max_aj_tasks", 0) != 0) continue;
    const std::string_view value = trim(line.substr(12));
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end != value.data() + value.size() || n < 0) return std::nullopt;
    return n;  // 0: no limit
  }
  return std::nullopt;
}

}  // namespace yard
