// LocalBackend: the embedded scheduler for one machine. It owns the queue, the resource
// pool, the dependency tracker and the map of running jobs, and keeps them consistent
// with the Store, which it updates before acting (a job is RUNNING in the store before
// its supervisor is forked).
//
// Jobs are ordered and started by the scheduling policy (local_scheduler.h); usage is
// charged to the job's account in the store when it ends or is preempted. A preempted
// job's supervisor gets SIGUSR2: it stops the job and records PENDING, and the job is
// requeued with its id and submit time.
//
// Driven by the daemon's event loop, single-threaded:
//   use_policy() and recover() once at start; then per loop iteration, inside one store
//   transaction: supervisor_exited() / submit() / cancel(), then plan_starts(); commit;
//   launch().
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/job_spec.h"
#include "local/dependency_tracker.h"
#include "local/job_queue.h"
#include "local/launcher.h"
#include "local/launch_plan.h"
#include "local/local_scheduler.h"
#include "local/machine.h"
#include "local/resource_pool.h"
#include "store/store.h"

namespace yard {

class LocalBackend {
 public:
  // `state_dir` holds run records (run/) and saved scripts (scripts/).
  LocalBackend(Store& store, Machine machine, std::string state_dir, std::string user);

  // Another backend on the same machinery: jobs submitted with `--backend name` are
  // scheduled on `machine` and each launch plan goes through `wrap` before it runs (direct
  // mode: the job becomes an srun step of a Slurm allocation). Call before recover().
  using PlanWrapper = std::function<void(LaunchPlan&, const JobSpec&)>;
  void serve_as(std::string name, PlanWrapper wrap) {
    name_ = std::move(name);
    wrap_ = std::move(wrap);
  }
  const std::string& name() const { return name_; }

  // Schedules with this policy (before recover(); the default: EASY, no tiers).
  void use_policy(sched::PolicyConfig config);

  // Rebuilds the in-memory state from the store (and the accounts ledger from the
  // usage charged so far): adopts supervisors that survived a
  // daemon crash, finalizes jobs that ended meanwhile, requeues never-launched ones.
  Status recover();

  // Validates, stores and queues a job (or array). Returns the new job ids.
  Result<std::vector<std::int64_t>> submit(JobSpec spec);
  // Cancels pending jobs at once and signals the supervisors of running ones.
  // Returns the ids it acted on.
  Result<std::vector<std::int64_t>> cancel(const std::vector<std::int64_t>& ids);

  // A supervisor's pidfd became readable: records the job's outcome.
  void supervisor_exited(int pidfd);

  // Chooses jobs to start and marks them RUNNING in the store (inside the caller's
  // transaction); launch() forks their supervisors once that is committed.
  void plan_starts();
  void launch();

  // Supervisors are forked by `launcher` from now on (not owned; must outlive this).
  void use_launcher(Launcher* launcher) { launcher_ = launcher; }

  // Signals every running job's supervisor (daemon shutdown with --kill-jobs).
  void cancel_all_running();

  std::vector<int> watched_fds() const;
  std::size_t running() const { return running_.size(); }
  std::size_t pending() const { return pending_.size(); }
  const Machine& machine() const { return machine_; }
  const LocalScheduler& scheduler() const { return scheduler_; }

 private:
  struct Running {
    std::int64_t id = 0;
    Allocation alloc;
    pid_t supervisor = 0;
    int pidfd = -1;
    std::int64_t array_job_id = 0;
    std::int64_t spec_id = 0;
    RunningJobView view;      // what the policy sees (account, start, cpus, walltime)
    bool requeueing = false;  // told to stop for preemption; reports PENDING
  };
  struct Planned {
    std::int64_t id, spec_id, array_job_id;
    Allocation alloc;
    LaunchPlan plan;
    RunningJobView view;
  };

  std::string record_path(std::int64_t id) const;
  std::string script_path(std::int64_t spec_id) const;
  Result<std::shared_ptr<const JobSpec>> spec_for(std::int64_t spec_id);
  QueuedJob queued(const JobRecord& r);
  std::string account_of(std::int64_t spec_id);
  void enqueue_pending(const JobRecord& r);
  void finalize(std::int64_t id);
  void resolve_dependents(std::int64_t id, JobState state);
  // With `charge`, the usage is recorded in the same transaction.
  void set_state(std::int64_t id, JobState to, const Transition& t, const UsageCharge* charge = nullptr);
  // The usage of a job that stops running at `end`, charged to its account in the ledger.
  UsageCharge charge(const RunningJobView& v, double end);
  Status adopt(const JobRecord& r);
  void watch(Running r);
  Result<Launched> start(const LaunchPlan& plan, int record_fd);

  Store& store_;
  Machine machine_;
  std::string state_dir_, user_;
  ResourcePool pool_;
  LocalScheduler scheduler_;
  JobQueue queue_;
  DependencyTracker deps_;
  std::unordered_map<std::int64_t, QueuedJob> pending_;  // every PENDING job
  std::unordered_map<std::int64_t, Running> running_;
  std::unordered_map<int, std::int64_t> by_pidfd_;
  std::map<std::int64_t, std::shared_ptr<const JobSpec>> specs_;
  std::vector<Planned> planned_;
  Launcher* launcher_ = nullptr;
  std::string name_ = "local";
  PlanWrapper wrap_;
};

double wall_now();

}  // namespace yard
