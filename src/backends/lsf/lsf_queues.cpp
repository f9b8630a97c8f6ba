#include "backends/lsf/lsf_queues.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <utility>

#include "core/text.h"

namespace yard {
namespace {

// The names of a group's line (" RUNLIMIT                 TASKLIMIT") with the column
// each starts at; empty when the line is no such line.
std::vector<std::pair<std::string, std::size_t>> limit_names(std::string_view line) {
  std::vector<std::pair<std::string, std::size_t>> names;
  std::size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && line[at] == ' ') ++at;
    if (at >= line.size()) break;
    std::size_t end = line.find(' ', at);
    if (end == std::string_view::npos) end = line.size();
    const std::string_view word = line.substr(at, end - at);
    if (word.size() < 6 || !word.ends_with("LIMIT")) return {};
    for (char c : word)
      if (!std::isupper(static_cast<unsigned char>(c))) return {};
    names.emplace_back(std::string(word), at);
    at = end;
  }
  return names;
}

// "720.0 min", "240.0 min of hostA": seconds.
std::optional<std::int64_t> run_limit(const std::string& v) {
  char* end = nullptr;
  const double minutes = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || !std::isfinite(minutes) || minutes < 0 || minutes > 1e12) return std::nullopt;
  const std::string_view rest = trim(end);
  if (rest != "min" && !rest.starts_with("min of ")) return std::nullopt;
  return static_cast<std::int64_t>(std::ceil(minutes * 60));
}

// "4", "1 4 16" (minimum, default, most): the most.
std::optional<std::int64_t> task_limit(const std::string& v) {
  std::int64_t last = -1;
  const char* p = v.c_str();
  while (*p) {
    char* end = nullptr;
    const long long n = std::strtoll(p, &end, 10);
    if (end == p || n < 0) return std::nullopt;
    last = n;
    p = end;
    while (*p == ' ') ++p;
  }
  if (last < 0) return std::nullopt;
  return last;
}

}  // namespace

std::vector<std::string> lsf_queues_argv() { return {"bqueues", "-l"}; }

Result<QueueListing> parse_lsf_queues(std::string_view out) {
  QueueListing listing;
  listing.complete = true;  // no queue named: every queue
  QueueLimits* queue = nullptr;
  enum class Part { Other, Defaults, Limits } part = Part::Limits;
  std::vector<std::pair<std::string, std::size_t>> names;  // a group's names, its values next
  std::size_t line_no = 0;
  for (std::string_view line : split(out, '\n')) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string text(trim(line));
    if (text.empty()) continue;
    const std::string where = "bqueues -l, line " + std::to_string(line_no) + ": ";
    if (line.rfind("QUEUE:", 0) == 0) {
      const std::string name(trim(line.substr(6)));
      if (name.empty()) return err(where + "a queue without a name");
      queue = &listing.queues[name];
      part = Part::Limits;  // limits without the headers a queue with defaults has are its maxima
      names.clear();
      continue;
    }
    if (text == "DEFAULT LIMITS:") part = Part::Defaults;
    else if (text == "MAXIMUM LIMITS:") part = Part::Limits;
    else if (text == "SCHEDULING PARAMETERS") part = Part::Other;
    if (text.back() == ':' || text == "SCHEDULING PARAMETERS" || part == Part::Other) continue;
    if (!names.empty()) {  // the values under the names of the line before
      auto group = std::exchange(names, {});
      if (part != Part::Limits) continue;
      if (!queue) return err(where + "limits before any QUEUE: line");
      for (std::size_t i = 0; i < group.size(); ++i) {
        const std::size_t from = group[i].second, to = i + 1 < group.size() ? group[i + 1].second : line.size();
        const std::string value(from < line.size() ? trim(line.substr(from, to - from)) : std::string_view());
        const std::string& name = group[i].first;
        if (name == "RUNLIMIT") {
          auto t = run_limit(value);
          if (!t) return err(where + "RUNLIMIT '" + value + "': expected minutes, such as 720.0 min");
          queue->time_s = *t;
        } else if (name == "TASKLIMIT" || name == "PROCLIMIT") {
          auto n = task_limit(value);
          if (!n) return err(where + name + " '" + value + "': expected numbers of tasks");
          queue->cpus = *n;
        }
      }
      continue;
    }
    names = limit_names(line);
  }
  return listing;
}

}  // namespace yard
