#include "sim/metrics.h"

#include <algorithm>
#include <limits>

namespace yard::sim {

Metrics compute_metrics(const std::vector<SimJob>& jobs, const SimResult& result, Procs machine) {
  Metrics m;
  m.jobs = jobs.size();
  if (jobs.empty()) return m;
  double wait_sum = 0;
  double bsld_sum = 0;
  double work = 0;
  Time first = std::numeric_limits<Time>::max();
  Time last = std::numeric_limits<Time>::min();
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const SimJob& j = jobs[i];
    const Time wait = result.start[i] - j.submit;
    wait_sum += static_cast<double>(wait);
    m.max_wait_s = std::max(m.max_wait_s, wait);
    const double bsld = static_cast<double>(wait + j.run) /
                        static_cast<double>(std::max(j.run, kSlowdownThreshold));
    bsld_sum += std::max(1.0, bsld);
    work += static_cast<double>(j.procs) * static_cast<double>(j.run);
    first = std::min(first, j.submit);
    last = std::max(last, result.start[i] + j.run);
  }
  const auto n = static_cast<double>(jobs.size());
  m.avg_wait_s = wait_sum / n;
  m.avg_bounded_slowdown = bsld_sum / n;
  m.makespan_s = last - first;
  if (m.makespan_s > 0 && machine > 0) {
    m.utilization = work / (static_cast<double>(machine) * static_cast<double>(m.makespan_s));
  }
  return m;
}

}  // namespace yard::sim
