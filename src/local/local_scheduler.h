// The local backend's scheduling policy: the policy engine (sched/engine.h) over one pool,
// the machine's CPUs, with the accounts ledger, turned into allocations by the
// ResourcePool, which alone decides what fits now in CPUs, memory and GPUs.
//
// One pass: the engine ranks the ready jobs (tiers, the job's --priority, weighted
// priority, submit time), starts what fits, holds reservations (reservation_depth; 1 =
// EASY backfilling) and names best-effort jobs to preempt. Estimates are walltimes; a job
// without one gets the config's default_walltime (an estimate only, never enforced).
// The jobs it starts are then allocated in its order; one that does not fit now (memory
// or GPUs: the engine can account them, but its pool here is the CPUs alone; or CPUs
// still held by a job being preempted)
// is skipped, and the first such job holds its memory and GPUs for the rest of the pass:
// later jobs start only in what is left beside it, so it cannot be starved, and since it
// holds nothing between passes, jobs that end always make room: no deadlock.
// Not thread safe: owned by the daemon's event loop.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "local/job_queue.h"
#include "local/resource_pool.h"
#include "sched/accounts.h"
#include "sched/engine.h"
#include "sched/policy_config.h"

namespace yard {

// What the policy needs to know about a running job.
struct RunningJobView {
  std::int64_t id = 0;
  std::string account;
  double start_time = 0;
  int cpus = 1;
  std::int64_t walltime_s = 0;  // 0 = none given
};

// The account a job without -A is charged to when the policy names no default_account.
inline constexpr std::string_view kDefaultAccount = "default";

// The policy file at `path`; defaults (EASY, no tiers) when it does not exist.
Result<sched::PolicyConfig> load_local_policy(const std::string& path);

class LocalScheduler {
 public:
  LocalScheduler(sched::PolicyConfig config, int cpus);

  const sched::PolicyConfig& config() const { return engine_.config(); }
  // The policy weighs nothing but --priority (the default): its order is the queue's
  // plain order (JobQueue::plain_order) and it never preempts.
  bool plain() const;
  sched::Accounts& accounts() { return accounts_; }
  const sched::Accounts& accounts() const { return accounts_; }

  // The account a job asking for `requested` (possibly "") is charged to.
  std::string account_of(std::string_view requested) const;
  // A job's estimate in seconds: its walltime, else the default walltime.
  sched::Time estimate(std::int64_t walltime_s) const;

  struct Start {
    std::int64_t id;
    Allocation alloc;
  };
  struct Plan {
    std::vector<Start> start;           // allocated from the pool, in the engine's order
    std::vector<std::int64_t> preempt;  // running jobs to stop and requeue
  };
  // One pass at `now` (seconds since the epoch): at most `slots` jobs start.
  Plan pass(const JobQueue& queue, std::span<const RunningJobView> running, ResourcePool& pool, int slots,
            double now) const;

 private:
  sched::PolicyEngine engine_;
  sched::Accounts accounts_;
};

}  // namespace yard
