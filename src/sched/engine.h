// Policy engine: one scheduling pass under a policy config (policy_config.h), as a pure
// function of the cluster (resource pools), the queued jobs, the running jobs with their
// estimated ends, the accounts ledger and the time. It returns which queued jobs start now
// and which running best-effort jobs to preempt; it keeps no state between passes, so the
// local backend and the simulator drive it the same way: call schedule() after anything
// changes, start what it says, stop and requeue what it preempts (with the original submit
// time), charge the accounts when a job ends or is preempted.
//
// The pass (docs/SCHEDULING.md):
//   - queue order: non-best-effort jobs first, then best-effort ones; within each, the
//     job's own priority (QueuedJob::user_priority, 0 unless set) descending, then the
//     weighted priority descending (priority.h), then submit time, then id;
//   - availability: per pool, one profile (profile.h) of free cores, one of free memory
//     and one of free GPUs, holding every running job until its estimated end (a job past
//     its estimate is assumed to end in one second); a job fits when every resource of
//     every pool it asks for is free over its whole estimate;
//   - a job with several components (co-allocation) starts only when every component fits
//     in its pool at the same time; its earliest start is the smallest t at which all fit,
//     found by raising t to the latest of the components' earliest starts until all agree;
//     a reservation holds every component from that t;
//   - backfilling with a reservation depth: non-best-effort jobs in queue order start if
//     they fit now; one that does not gets a reservation while fewer than `depth` are held
//     (depth 0: the pass stops there for non-best-effort jobs; unlimited: every one gets a
//     reservation); the jobs after the last reservation start if they fit now without
//     delaying a reservation (in queue order, or shortest estimate first);
//   - a non-best-effort job (or a best-effort one of a higher tier) that cannot start now
//     but would if running best-effort jobs of lower tiers were stopped preempts them: the
//     lowest tier first, then the most recently started, until it fits;
//   - best-effort jobs come last, never hold reservations, and start only in what is left
//     free now.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sched/accounts.h"
#include "sched/backfill.h"
#include "sched/policy_config.h"
#include "sched/priority.h"
#include "sched/profile.h"

namespace yard::sched {

// A resource pool (partition, module): `nodes` identical nodes. Resources are accounted
// per pool, in aggregate (cores, memory and GPUs summed over its nodes): the engine checks
// that every node-shaped request fits one node, but does not place components on nodes,
// so fragmentation across nodes is not modelled (docs/SCHEDULING.md).
struct Pool {
  std::int64_t nodes = 1;
  Procs cores_per_node = 0;
  std::int64_t memory_per_node = 0;  // bytes; 0: memory is not accounted on this pool
  std::int64_t gpus_per_node = 0;

  Pool() = default;
  // Shorthand for the processor-only model: one node of `cores` cores.
  Pool(Procs cores) : cores_per_node(cores) {}  // NOLINT: implicit on purpose
  Pool(std::int64_t nodes_, Procs cores, std::int64_t memory, std::int64_t gpus)
      : nodes(nodes_), cores_per_node(cores), memory_per_node(memory), gpus_per_node(gpus) {}

  Procs cores() const { return nodes * cores_per_node; }
  std::int64_t memory() const { return nodes * memory_per_node; }
  std::int64_t gpus() const { return nodes * gpus_per_node; }
};

// What one component asks of one pool. With nodes == 0 (no node count), `procs` cores,
// `memory` bytes and `gpus` GPUs in total anywhere in the pool; with nodes > 0, `nodes`
// nodes each giving `procs` cores (the total is nodes x procs), `memory` bytes and `gpus`
// GPUs, and each node's share must fit one node of the pool. Memory is ignored on a pool
// that does not account it; GPUs on a pool without GPUs can never be had.
struct Component {
  std::size_t pool = 0;
  Procs procs = 1;
  std::int64_t memory = 0;
  std::int64_t gpus = 0;
  std::int64_t nodes = 0;

  // Totals over the component's nodes.
  Procs total_cores() const { return nodes > 0 ? nodes * procs : procs; }
  std::int64_t total_memory() const { return nodes > 0 ? nodes * memory : memory; }
  std::int64_t total_gpus() const { return nodes > 0 ? nodes * gpus : gpus; }
};

struct QueuedJob {
  JobId id = 0;
  std::string account;
  Time submit = 0;
  Time estimate = 1;                   // > 0: every component is held this long
  std::vector<Component> components;  // at least one
  // The job's own priority (the local backend's --priority): within the non-best-effort
  // and the best-effort jobs, a larger value comes first, before the weighted priority.
  int user_priority = 0;
};

struct RunningJob {
  JobId id = 0;
  std::string account;
  Time start = 0;
  Time end = 0;  // estimated end (start + estimate)
  std::vector<Component> components;
};

struct RankedJob {
  JobId id = 0;
  bool best_effort = false;
  double priority = 0;
  PriorityFactors factors;
};

struct PassResult {
  std::vector<JobId> start;    // start now, in the order decided
  std::vector<JobId> preempt;  // running jobs to stop and put back in the queue
  std::vector<std::pair<JobId, Time>> reserved;  // reservations held during the pass
};

class PolicyEngine {
 public:
  // `pools[i]` describes pool i (a number converts to one node of that many cores).
  PolicyEngine(PolicyConfig config, std::vector<Pool> pools);

  const PolicyConfig& config() const { return config_; }
  const std::vector<Pool>& pools() const { return pools_; }

  // The queue in scheduling order with each job's priority and factors.
  std::vector<RankedJob> rank(std::span<const QueuedJob> queue, const Accounts& accounts,
                              Time now) const;

  // One pass at `now`. Jobs that can never start (a component larger than its pool in
  // cores, memory or GPUs, a node-shaped request larger than a node or asking for more
  // nodes than the pool has, or a pool that does not exist) are left in the queue.
  PassResult schedule(std::span<const QueuedJob> queue, std::span<const RunningJob> running,
                      const Accounts& accounts, Time now) const;

  // The config's tier of an account (through default_account for unknown ones); null
  // when there is none.
  const TierConfig* tier_of(std::string_view account) const;

 private:
  PolicyConfig config_;
  std::vector<Pool> pools_;
  Procs total_ = 0;  // cores over every pool
};

}  // namespace yard::sched
