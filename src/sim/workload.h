// Workload: the jobs a simulation replays, and the rules (those of pyss, the Hebrew
// University's research simulator) that turn SWF records into them:
//   keep jobs with run time > 0 and processors > 0; processors = allocated if > 0 else
//   requested, capped at the machine size; estimate = requested time if > 0 else the run
//   time; a job runs min(run time, estimate).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sched/profile.h"
#include "sim/swf_reader.h"

namespace yard::sim {

using sched::Procs;
using sched::Time;

struct SimJob {
  std::int64_t id = 0;
  Time submit = 0;
  Time run = 1;       // what the job actually runs, <= estimate
  Procs procs = 1;    // 1 <= procs <= machine size
  Time estimate = 1;  // > 0
};

// Applies the rules above; keeps at most `first` jobs when first > 0.
std::vector<SimJob> jobs_from_swf(const SwfTrace& trace, Procs machine, std::size_t first = 0);

}  // namespace yard::sim
