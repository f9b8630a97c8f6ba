// Trace-driven simulator: replays jobs through the backfilling algorithm (sched/) on a
// virtual clock, with the event rules of pyss so that its results match job for job:
//   - events are ordered by time, then kind (submission before termination before
//     start), then creation order (submissions are created first, in trace order);
//   - one scheduling pass after each submission and after each termination;
//   - a job chosen in a pass starts through a start event at its start time; a start event
//     that a later decision has superseded is ignored;
//   - a job ends `run` seconds after its start, and its unused estimate is then released.
#pragma once

#include <vector>

#include "core/result.h"
#include "sched/policy.h"
#include "sim/workload.h"

namespace yard::sim {

struct SimResult {
  std::vector<Time> start;  // start[i] is the start time of jobs[i]
};

// Fails only on jobs that break SimJob's invariants (e.g. wider than the machine).
Result<SimResult> simulate(const std::vector<SimJob>& jobs, Procs machine, sched::Policy policy);

}  // namespace yard::sim
