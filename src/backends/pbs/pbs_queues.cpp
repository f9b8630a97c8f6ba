#include "backends/pbs/pbs_queues.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "backends/pbs/pbs_values.h"
#include "core/text.h"

namespace yard {
namespace {

// "16gb", "1024MB", "4194304kb", "100" (bytes): bytes.
std::optional<std::uint64_t> pbs_size(std::string_view v) {
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end == v.data()) return std::nullopt;
  std::string unit(end, v.data() + v.size());
  for (auto& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  int shift = 0;
  std::uint64_t word = 1;
  if (!unit.empty() && unit.back() == 'w') word = 8, unit.back() = 'b';
  if (unit.empty() || unit == "b") shift = 0;
  else if (unit == "kb") shift = 10;
  else if (unit == "mb") shift = 20;
  else if (unit == "gb") shift = 30;
  else if (unit == "tb") shift = 40;
  else if (unit == "pb") shift = 50;
  else return std::nullopt;
  if (n > (UINT64_MAX >> shift) / word) return std::nullopt;
  return (n * word) << shift;
}

}  // namespace

std::vector<std::string> pbs_queues_argv() { return {"qstat", "-Q", "-f"}; }

Result<QueueListing> parse_pbs_queues(std::string_view out) {
  QueueListing listing;
  listing.complete = true;  // no queue named: every queue is listed
  QueueLimits* queue = nullptr;
  std::size_t line_no = 0;
  for (const std::string_view line : split(out, '\n')) {
    ++line_no;
    const std::string where = "qstat -Q -f, line " + std::to_string(line_no) + ": ";
    if (trim(line).empty()) continue;
    if (line.rfind("Queue:", 0) == 0) {
      const std::string name(trim(line.substr(6)));
      if (name.empty()) return err(where + "a queue without a name");
      queue = &listing.queues[name];
      continue;
    }
    const std::size_t eq = line.find(" = ");
    if (eq == std::string_view::npos || line.front() != ' ') continue;  // a folded list's next line
    if (!queue) return err(where + "an attribute before any 'Queue:' line");
    const std::string_view key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 3));
    if (key == "resources_max.walltime") {
      auto t = pbs_duration(value);
      if (!t || *t < 0) return err(where + "resources_max.walltime = " + std::string(value) + ": expected HH:MM:SS");
      queue->time_s = *t;
    } else if (key == "resources_max.ncpus" || key == "resources_max.procct") {
      auto n = pbs_integer(value);
      if (!n || *n < 0) return err(where + std::string(key) + " = " + std::string(value) + ": expected a number");
      queue->cpus = queue->cpus ? std::min<std::int64_t>(queue->cpus, *n) : *n;
    } else if (key == "resources_max.mem") {
      auto m = pbs_size(value);
      if (!m) return err(where + "resources_max.mem = " + std::string(value) + ": expected a size such as 16gb");
      queue->mem_bytes = *m;
    }
  }
  return listing;
}

}  // namespace yard
