// Metrics of a simulated schedule: mean wait, mean bounded slowdown (threshold 10 s), max
// wait, utilization (processor-seconds used over processor-seconds available between the
// first submission and the last end) and makespan (that same interval).
#pragma once

#include <cstddef>
#include <vector>

#include "sim/simulator.h"
#include "sim/workload.h"

namespace yard::sim {

inline constexpr Time kSlowdownThreshold = 10;

struct Metrics {
  std::size_t jobs = 0;
  double avg_wait_s = 0;
  double avg_bounded_slowdown = 0;
  Time max_wait_s = 0;
  double utilization = 0;
  Time makespan_s = 0;
};

Metrics compute_metrics(const std::vector<SimJob>& jobs, const SimResult& result, Procs machine);

}  // namespace yard::sim
