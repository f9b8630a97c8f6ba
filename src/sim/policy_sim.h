// Simulation under a policy config (sched/engine.h): tiers, fair-share, best-effort
// preemption and co-allocation, on a virtual clock. Unlike simulate() (simulator.h), which
// reproduces pyss event for event for the four plain policies, this loop runs one engine
// pass per instant at which something happened (all terminations, then all submissions of
// that instant, then the pass; passes repeat at the same instant while they preempt):
//   - a job that starts runs `run` seconds; its estimate is what the engine plans with;
//   - when it ends, its account is charged run x processors (core-seconds);
//   - a preempted job is charged what it ran, goes back to the queue with its original
//     submit time and later runs again from the beginning; its start is its last start.
//
// From a trace (SWF): the account comes from the user (field 12), group (13) or queue (15)
// id through the config's account_map, else default_account; a job's pool is its
// partition (field 16: 1 is the config's first pool; -1 or 0 the first pool); consecutive
// lines repeating a job id are further components of that job (co-allocation), each on
// its own partition, sharing the first line's submit time, run time and estimate. A
// component asks for its processors as cores anywhere in its pool (no node count), and for
// memory only if the trace gives a requested memory (field 10, KB per processor) and its
// pool accounts memory (memory_per_node): then processors x that, capped at the pool's.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/result.h"
#include "sched/accounts.h"
#include "sched/engine.h"
#include "sched/policy_config.h"
#include "sim/simulator.h"
#include "sim/swf_reader.h"
#include "sim/workload.h"

namespace yard::sim {

struct PolicyJob {
  SimJob job;  // procs: the sum over components
  std::string account;
  std::vector<sched::Component> components;
};

struct PolicySimResult {
  SimResult result;                 // start[i]: the last start of jobs[i]
  std::vector<int> preempted;       // preempted[i]: how many times jobs[i] was preempted
  std::size_t preemptions = 0;
  std::vector<sched::AccountStatus> accounts;  // the ledger at the end
};

// The pools: the config's pools (a pool given neither procs nor nodes is one node of
// `machine` cores), or one pool of one node of `machine` cores.
Result<std::vector<sched::Pool>> pool_sizes(const sched::PolicyConfig& config, Procs machine);

// Applies the workload rules of workload.h per component and the mapping above.
Result<std::vector<PolicyJob>> policy_jobs_from_swf(const SwfTrace& trace,
                                                    const sched::PolicyConfig& config,
                                                    const std::vector<sched::Pool>& pools,
                                                    std::size_t first = 0);

Result<PolicySimResult> simulate_policy(const std::vector<PolicyJob>& jobs,
                                        const sched::PolicyConfig& config,
                                        const std::vector<sched::Pool>& pools);

// The SimJobs of `jobs`, for metrics and outputs.
std::vector<SimJob> sim_jobs(const std::vector<PolicyJob>& jobs);

}  // namespace yard::sim
