// LocalBackend: the embedded scheduler for one machine. It owns the queue, the resource
// pool, the dependency tracker and the map of running jobs, and keeps them consistent
// with the Store, which it updates before acting (a job is RUNNING in the store before
// it is handed to the job host).
//
// Jobs are ordered and started by the scheduling policy (local_scheduler.h); usage is
// charged to the job's account in the store when it ends or is preempted. For a preempted
// job the host gets preempt_signal(): it stops the job and records PENDING, and the job
// is requeued with its id and submit time.
//
// Driven by the daemon's event loop, single-threaded:
//   use_policy() and recover() once at start; then per loop iteration, inside one store
//   transaction: job_ended() / host_died() / fd_ready() / submit() / cancel(), then
//   plan_starts(); commit; launch().
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/clock.h"
#include "core/job_action.h"
#include "core/job_spec.h"
#include "local/dependency_tracker.h"
#include "local/host_protocol.h"
#include "local/job_mail.h"
#include "local/job_queue.h"
#include "local/job_runner.h"
#include "local/launch_plan.h"
#include "local/local_scheduler.h"
#include "local/machine.h"
#include "local/record_slots.h"
#include "local/resource_pool.h"
#include "local/run_record.h"
#include "store/store.h"

namespace yard {

class LocalBackend {
 public:
  // `state_dir` holds run records (run/) and saved scripts (scripts/). Every time it
  // records or plans with is read from `clock` (which must outlive it).
  LocalBackend(Store& store, Machine machine, std::string state_dir, std::string user,
               const Clock& clock = system_clock());
  ~LocalBackend();
  LocalBackend(const LocalBackend&) = delete;
  LocalBackend& operator=(const LocalBackend&) = delete;

  // Another backend on the same machinery: jobs submitted with `--backend name` are
  // scheduled on `machine` and each launch plan goes through `wrap` before it runs (direct
  // mode: the job becomes an srun step of a Slurm allocation). With `component` >= 0 it
  // serves only the jobs of that backend whose het_group is that component (one backend
  // per component of a heterogeneous allocation). Call before recover().
  using PlanWrapper = std::function<void(LaunchPlan&, const JobSpec&)>;
  void serve_as(std::string name, PlanWrapper wrap, int component = -1) {
    name_ = std::move(name);
    wrap_ = std::move(wrap);
    component_ = component;
    records_ = RecordSlots(state_dir_ + "/run", component < 0 ? name_ : name_ + "-" + std::to_string(component));
  }
  const std::string& name() const { return name_; }

  // Schedules with this policy (before recover(); the default: EASY, no tiers).
  void use_policy(sched::PolicyConfig config);

  // Rebuilds the in-memory state from the store (and the accounts ledger from the
  // usage charged so far): adopts jobs whose host survived a daemon crash (their records
  // are watched with inotify), finalizes jobs that ended meanwhile, requeues
  // never-launched ones.
  Status recover();

  // Validates, stores and queues a job (or array). Returns the new job ids.
  Result<std::vector<std::int64_t>> submit(JobSpec spec);
  // What submit() checks of `spec` (its backend set), storing nothing.
  Status check(const JobSpec& spec) const;
  // What this backend will not do for a valid job, a line each (no sendmail for its mail).
  std::vector<std::string> warnings(const JobSpec& spec) const;
  // The sbatch options it acts on (Backend::honours): the machine's own backend signals,
  // runs a job alone and mails; a step leaves those to its allocation's scheduler.
  bool honours(std::string_view option) const {
    return name_ == kDefaultBackend &&
           (option == "signal" || option == "exclusive" || option == "mail-type" || option == "mail-user");
  }
  // Cancels pending jobs at once and has the host stop running ones.
  // Returns the ids it acted on.
  Result<std::vector<std::int64_t>> cancel(const std::vector<std::int64_t>& ids);
  // Holds, releases or requeues its jobs among `jobs` (the records of `ids`, an array's
  // elements included; local_holds.cpp): the ids acted on, or why a job named by its own
  // id cannot be (then nothing is done).
  Result<std::vector<std::int64_t>> act(JobAction action, const std::vector<std::int64_t>& ids,
                                        const std::vector<JobRecord>& jobs);

  // `yard routes move` (local_moves.cpp): gives up pending job `id`, not started and not
  // an array's element: "" when it did (or, `dry_run`, would), else why it stays. Its
  // record is the caller's to move; adopt() takes one moved here.
  std::string release(std::int64_t id, bool dry_run);
  Status adopt(const JobRecord& job);

  // The host reported a job's end: records its outcome. False if the job is not ours.
  bool job_ended(const Ended& report);
  // The host died: every job it had is finalized from its record (LOST, unless its
  // outcome was written).
  void host_died();
  // One of watched_fds() is readable (adopted jobs' records changed).
  void fd_ready(int fd);

  // Chooses jobs to start and marks them RUNNING in the store (inside the caller's
  // transaction); launch() hands them to the job host once that is committed.
  void plan_starts();
  void launch();

  // Jobs run on `host` (not owned; must outlive this).
  void use_host(JobRunner* host) { host_ = host; }

  // Time-driven work (revoking hand-offs that wait too long), and when it is next due.
  void tick(double now);
  double next_wakeup_s(double now) const;

  // Cancels every running job (daemon shutdown with --kill-jobs).
  void cancel_all_running();

  std::vector<int> watched_fds() const;
  std::size_t running() const { return running_.size(); }
  // Every job holding CPUs has a hand-off waiting behind it: they stay busy however long
  // the daemon takes to hear of ends (true too when nothing runs).
  bool cpus_covered() const;
  std::size_t pending() const { return pending_.size(); }
  const Machine& machine() const { return machine_; }
  const LocalScheduler& scheduler() const { return scheduler_; }

 private:
  struct Running {
    std::int64_t id = 0;
    Allocation alloc;
    // Adopted: started by the host of an earlier daemon; its end shows as the close of
    // its record (inotify watch `watch`), and it is signalled through `host_pidfd`.
    int slot = -1;  // its run record (record_slots.h)
    bool adopted = false;
    int watch = -1;
    int host_pidfd = -1;
    std::int64_t array_job_id = 0;
    std::int64_t spec_id = 0;
    std::int64_t kind = 0;    // its hand-off kind (handoff_kind); 0: none (adopted)
    RunningJobView view;      // what the policy sees (account, start, cpus, walltime)
    bool requeueing = false;  // told to stop for preemption; reports PENDING
    // Hand-offs (see plan_handoffs): `successor` waits in the host for this job's CPUs;
    // a successor not started yet has its `predecessor`, does not own `alloc` (the
    // predecessor's, until that ends), and is revoked if it waits too long for a running
    // predecessor (`handed_at`: since when it does). A successor may have one of its own:
    // a chain.
    std::int64_t successor = 0, predecessor = 0;
    bool owns_alloc = true;
    double handed_at = 0;
    bool revoking = false;
    bool long_running = false;  // a hand-off behind it waited too long: no more of them
    bool cancel_sent = false;   // nothing is handed behind a job told to stop
  };
  struct Planned {
    std::int64_t id, spec_id, array_job_id;
    Allocation alloc;
    LaunchPlan plan;
    RunningJobView view;
    std::int64_t after = 0;  // a hand-off behind this running job (or hand-off)
    int depth = 0;           // hand-offs not started before it, itself included
    std::int64_t kind = 0;   // handoff_kind
  };

  // The script of a job's spec where its launch runs it (script_path): written when the job
  // is submitted here, or moved here from a backend that kept it elsewhere.
  Status save_script(std::int64_t spec_id, const std::string& script) const;
  std::string script_path(std::int64_t spec_id) const;
  Result<std::shared_ptr<const JobSpec>> spec_for(std::int64_t spec_id);
  QueuedJob queued(const JobRecord& r);
  bool mine(const JobRecord& r);  // of this backend's component (see serve_as)
  std::string account_of(std::int64_t spec_id);
  bool whole_machine(std::int64_t spec_id);  // --exclusive
  void enqueue_pending(const JobRecord& r);
  // A pending job's parents and their states: queued if they allow it already, cancelled
  // (DependencyNeverSatisfied, and its dependents after it) if they never will.
  using ParentStates = std::vector<std::pair<Dependency, JobState>>;
  void add_dependencies(std::int64_t id, const ParentStates& parents, bool any);
  // An element's parents: each aftercorr made afterok on the parent's element of the same
  // `index` (`elements` keeps each parent array's elements by index, read once).
  using ParentElements =
      std::unordered_map<std::int64_t, std::unordered_map<std::int64_t, std::pair<std::int64_t, JobState>>>;
  ParentStates for_element(const ParentStates& whole, std::optional<std::int64_t> index, ParentElements& elements);
  void cancel_doomed(std::int64_t id);
  // The mail its --mail-type asks for as job `id` moves to `to` (local_mail.cpp);
  // `seconds`: how long it waited (to RUNNING) or ran (otherwise).
  void mail_about(std::int64_t id, std::int64_t spec_id, JobState to, double seconds, std::int64_t exit_code = 0);
  // Whether a preempted job goes back to the queue: unless it said --no-requeue.
  bool requeue_allowed(std::int64_t spec_id);
  // A job that ended as `to` tried again for its retry policy: back to PENDING with more
  // memory and time, queued now or after its backoff. False when its policy says no.
  bool try_again(std::int64_t id, const Running& run, bool release, JobState to, const Transition& t);
  // Jobs whose backoff ended go to the queue.
  void queue_due_retries(double now);
  // Parents of waiting jobs that are not this backend's, ended since: their dependents
  // decided (local_dependencies.cpp).
  void resolve_foreign_parents();  // a pending job whose dependency can never be met
  void finalize(std::int64_t id, const RunRecord& rec);
  // Plans hand-offs: when the queue's first job cannot start now, it is given to the host
  // behind a running job of its kind, to start on its CPUs the moment it ends.
  void plan_handoffs();
  // Which jobs may be handed off behind which: an array's elements behind each other (its
  // id), other jobs behind those that ask the same CPUs, memory, GPUs and account (a
  // negative number per such shape, given as shapes are met).
  std::int64_t handoff_kind(const QueuedJob& q);
  // How many hand-offs not started yet a running job is behind, itself included (0: it runs).
  int handoff_depth(const Running& r) const;
  // How long a chain of hand-offs a kind may have: an array one, unless its elements are
  // seen to end quickly; a shape none, unless its jobs are.
  int handoff_chain_limit(std::int64_t kind) const;
  // Revokes a hand-off and the ones behind it.
  void revoke_chain(Running& r);
  // A hand-off's wait (handoff_wait) counts only once its predecessor runs.
  bool waits_for_running(const Running& r) const;
  Planned plan_for(const QueuedJob& q, const Allocation& alloc, const JobSpec& spec, double start);
  void finalize_from_file(std::int64_t id);
  bool signal_job(Running& r, int sig);
  void resolve_dependents(std::int64_t id, JobState state);
  // With `charge`, the usage is recorded in the same transaction.
  void set_state(std::int64_t id, JobState to, const Transition& t, const UsageCharge* charge = nullptr);
  // The usage of a job that stops running at `end`, charged to its account in the ledger.
  UsageCharge charge(const RunningJobView& v, double end);
  Status adopt(const JobRecord& r, std::unordered_map<std::int64_t, int>& records);

  Store& store_;
  const Clock& clock_;
  Machine machine_;
  std::string state_dir_, user_;
  ResourcePool pool_;
  LocalScheduler scheduler_;
  JobQueue queue_;
  DependencyTracker deps_;
  std::unordered_map<std::int64_t, QueuedJob> pending_;  // every PENDING job
  std::set<std::int64_t> watched_parents_;  // parents of waiting jobs, looked at when not ours
  static constexpr double kForeignParentLookS = 1.0;
  std::set<std::int64_t> user_requeues_;  // running jobs stopped by yard requeue: pending again, said so
  std::map<std::int64_t, double> retry_at_;  // pending jobs tried again after a backoff: when (local_retry.cpp)
  std::unordered_map<std::int64_t, Running> running_;
  std::unordered_map<int, std::int64_t> by_watch_;  // inotify watch -> adopted job
  int inotify_fd_ = -1;
  RecordSlots records_;
  std::map<std::int64_t, std::shared_ptr<const JobSpec>> specs_;
  std::vector<Planned> planned_;
  double handoff_wait_s_ = machine_.handoff_wait_s;  // 0: no hand-offs
  Mailer mailer_{machine_.sendmail};
  std::unordered_set<std::int64_t> mailed_arrays_;  // arrays whose start was mailed about
  std::unordered_map<std::int64_t, double> kind_run_s_;  // hand-off kind -> its last job's run time
  std::map<std::tuple<int, std::uint64_t, int, std::string>, std::int64_t> shape_kinds_;  // handoff_kind
  JobRunner* host_ = nullptr;
  // When to try again jobs that could not be launched for want of disk space (0: none).
  double launch_retry_at_ = 0;
  std::string name_ = "local";
  int component_ = -1;
  PlanWrapper wrap_;
};

}  // namespace yard
