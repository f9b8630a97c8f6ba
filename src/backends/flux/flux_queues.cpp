#include "backends/flux/flux_queues.h"

#include <cmath>
#include <cstdlib>
#include <optional>

#include "core/text.h"

namespace yard {
namespace {

// "43200.0", "4", "inf" (none: 0), "-1" (none, as a negative maximum is).
std::optional<double> limit(const std::string& v) {
  if (v == "inf" || v == "infinity" || v == "-1") return 0.0;
  if (v.empty()) return std::nullopt;
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (*end || !std::isfinite(d) || d < 0 || d > 1e15) return std::nullopt;
  return d;
}

}  // namespace

std::vector<std::string> flux_queues_argv() {
  return {"flux", "queue", "list", "-n", "-o", "{queue},{limits.timelimit},{limits.max.ncores}"};
}

Result<QueueListing> parse_flux_queues(std::string_view out) {
  QueueListing listing;
  listing.complete = true;
  std::size_t line_no = 0;
  for (const std::string_view piece : split(out, '\n')) {
    const std::string line(piece);
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = "flux queue list, line " + std::to_string(line_no) + ": ";
    const std::size_t a = line.find(','), b = a == std::string::npos ? a : line.find(',', a + 1);
    if (b == std::string::npos || line.find(',', b + 1) != std::string::npos)
      return err(where + "expected NAME,TLIMIT,MAXCORES, got '" + line + "'");
    auto time = limit(line.substr(a + 1, b - a - 1)), cores = limit(line.substr(b + 1));
    if (!time) return err(where + "time limit '" + line.substr(a + 1, b - a - 1) + "': expected seconds or inf");
    if (!cores) return err(where + "most cores '" + line.substr(b + 1) + "': expected a number or inf");
    QueueLimits& q = listing.queues[line.substr(0, a)];
    q.time_s = static_cast<std::int64_t>(std::ceil(*time));
    q.cpus = static_cast<std::int64_t>(*cores);
  }
  return listing;
}

}  // namespace yard
