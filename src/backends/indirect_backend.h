// IndirectBackend: the engine shared by every batch scheduler reached through its CLI
// (Slurm and the like). The scheduler-specific part is a Dialect; this engine owns the
// rest, the same for all of them:
//   - jobs are in the store before anything is sent to the scheduler; a submission is
//     noted (submit_attempts) before its command runs, so after a crash a job attempted
//     but without a native id is looked up by the UID in its native name, never blindly
//     submitted twice;
//   - one status call per cycle for every tracked job, and one history call for the jobs
//     that left the live queue — never one call per job; background calls are capped by
//     a token bucket whatever the number of jobs;
//   - failures and time-outs of the scheduler are retried with exponential backoff;
//   - a job absent from both the queue and the history for `lost_after_s` is LOST,
//     never silently COMPLETED; cancellation is confirmed by state, not by exit codes.
//
// Driven by the daemon's single-threaded loop like the local backend:
//   per iteration, inside one store transaction: submit() / cancel(), step(now);
//   commit; dispatch() posts the planned commands to the CommandQueue.
// The commands run on the queue's own thread; their results come back through it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backends/backend.h"
#include "backends/command_runner.h"
#include "backends/dialect.h"
#include "backends/job_classes.h"
#include "backends/pilot_spec.h"
#include "backends/rate_limiter.h"
#include "store/store.h"

namespace yard {

// Config (YAML, every key optional), e.g. $XDG_CONFIG_HOME/switchyard/slurm.yaml:
//   poll_interval: 1        # seconds between status cycles
//   calls_per_second: 1.8   # background calls (status, history, look-ups), sustained:
//                           # under Slurm's per-user RPC bucket (about 2 per second)
//   burst: 4                # ... and at most this many at once
//   command_timeout: 60     # seconds before a hung command is killed (then retried)
//   retry_max: 60           # longest pause between retries, seconds (backoff doubles from 1)
//   lost_after: 60          # seconds absent from queue and history before a job is LOST
//   cancel_resend: 30       # seconds before an unconfirmed cancel is sent again
//   down_after_failures: 3  # the scheduler is down after this many failed calls in a
//   down_after: 60          # row, or calls failing for this many seconds (routes.yaml
//                           # then sends new jobs to its fallback); probed until it answers
//   max_array_size: 1000    # elements of one array at most (default: the scheduler's)
//   max_queued: 500         # at most this many jobs in the scheduler's queue at once
//                           # (Nextflow's queueSize); the others wait, held by yard
//   submit_rate: 10/min     # at most this many submissions per second, minute or hour
//                           # (Nextflow's submitRateLimit); a bare number is per second
//   allocation: 1234        # direct mode: run `--backend slurm-steps` jobs in this allocation
//   allocation: pilot       # ... or one yard submits itself, as a pilot batch job:
//   pilot: {partition: cpu, nodes: 1, cpus: 8, mem: 16G, gpus: 0, time: "4:00:00", account: proj, qos: normal}
//   job_limit: 8            # direct mode: at most this many steps at once
//   classes:                # yard submit --class NAME: a backend, and defaults
//     sweep: slurm-steps    #   (see job_classes.h)
//     big: {backend: slurm, partition: cpu, time: "2:00:00"}
struct IndirectConfig {
  double poll_interval_s = 1;
  double calls_per_second = 1.8;
  double burst = 4;
  double command_timeout_s = 60;
  double retry_max_s = 60;
  double lost_after_s = 60;
  double cancel_resend_s = 30;
  double down_after_failures = 3;
  double down_after_s = 60;
  // Throttles, shared by every client and flow of the daemon's user: 0 for none.
  int max_queued = 0;
  double submits_per_second = 0;
  // Direct mode (jobs as srun steps, `--backend slurm-steps`): the allocation to run in
  // (else the daemon's own SLURM_JOB_ID, when it runs inside one) and how many steps may
  // run at once (0: as many as fit).
  std::string allocation;
  int step_job_limit = 0;
  // allocation "pilot": what the pilot job asks for.
  PilotSpec pilot;
  JobClasses classes;
  // The scheduler's own settings (keys only its settings file has), by key, as written.
  std::map<std::string, std::string> scheduler_settings;
  // Elements of one array at most (0: the scheduler's, read from it or its default).
  std::int64_t max_array_size = 0;
};

// The config at `path`; defaults when the file does not exist. `scheduler_keys` are the
// settings of that scheduler's own, kept as text in scheduler_settings.
Result<IndirectConfig> load_indirect_config(const std::string& path,
                                            const std::vector<std::string>& scheduler_keys = {});

// submit_rate's value: "10/min", "2/s", "100/h", "5/30s", or a bare number (per second),
// in calls per second; and back in words for a REASON ("10 per minute").
Result<double> parse_rate(std::string_view text);
std::string format_rate(double per_second);

// What the engine did, for benchmarks and tests.
struct IndirectStats {
  std::uint64_t submit_calls = 0, poll_calls = 0, history_calls = 0, find_calls = 0, cancel_calls = 0;
  std::uint64_t failed_calls = 0, probe_calls = 0, action_calls = 0;
  double last_poll_parse_s = 0;  // time to parse and apply one status cycle
  std::uint64_t queue_calls = 0;
};

class IndirectBackend {
 public:
  // `state_dir` holds the generated batch scripts (<state_dir>/<backend>/<uid>.sh).
  IndirectBackend(Store& store, const Dialect& dialect, CommandQueue& commands, IndirectConfig config,
                  std::string state_dir, std::string user);

  std::string_view name() const { return dialect_.name(); }

  // Loads this backend's active jobs from the store (after a restart: resumes tracking,
  // and looks up jobs whose submission was attempted but whose native id is unknown).
  Status recover(double now);

  // Validates and stores a job (or array); it is submitted by a later step().
  Result<std::vector<std::int64_t>> submit(JobSpec spec, double now);
  // What submit() checks, storing nothing: the spec, its dependencies, and that the
  // dialect can write its batch script.
  Status check(JobSpec spec) const;
  // What the batch script of a valid `spec` says only nearly, one line each ("--time 90s:
  // ... counts minutes; rounded up"): yard submit's warnings.
  std::vector<std::string> approximations(const JobSpec& spec) const;
  // Notes a cancel request for those of `ids` that are this backend's and active.
  Result<std::vector<std::int64_t>> cancel(const std::vector<std::int64_t>& ids);
  // Holds, releases or requeues `jobs` (this backend's records among `ids`, as
  // Backend::act) through the scheduler's command (Dialect::action_argv), sent after the
  // commit; a held job's flag is stored now, and put back if the scheduler refuses
  // (indirect_actions.cpp).
  Result<std::vector<std::int64_t>> act(JobAction action, const std::vector<std::int64_t>& ids,
                                        const std::vector<JobRecord>& jobs, double now);

  // `yard routes move` (indirect_moves.cpp, Backend::release): job `id` (not an array) is
  // given up at once while yard holds it, or leaves once the scheduler cancelled it where
  // it had not started (Dialect::cancel_pending_argv); take_released() hands those over.
  // adopt() takes a job moved here.
  Release release(std::int64_t id, const std::string& to, bool dry_run);
  std::vector<std::int64_t> take_released() { return std::exchange(released_, {}); }
  Status adopt(const JobRecord& job);

  // Applies finished commands' results and plans the next commands.
  void step(double now);
  // Posts what step() planned; call once the store transaction is committed.
  void dispatch();
  // Seconds until step() has something to do by the clock (a poll, a retry).
  double next_wakeup_s(double now) const;

  std::size_t active() const { return members_.size(); }
  // Why the scheduler is down ("3 failed calls in a row since 12:00:03: squeue: ..."), or
  // "" while it answers. Down after down_after_failures failed calls in a row, or calls
  // failing for down_after seconds; up at its first answer. While down it is probed (a
  // status call) even when no job of ours is there to ask about.
  const std::string& down_reason() const { return health_.down_why; }
  const IndirectStats& stats() const { return stats_; }

  // routes.yaml sends jobs to these of its scheduler's queues: their limits are read at
  // once, then every 10 minutes (indirect_queue_limits.cpp), for the routes' check.
  void want_queue_limits(const std::set<std::string>& queues);
  const QueueListing& queue_listing() const { return queues_.listing; }
  // Elements of one array the scheduler takes at most (0: no limit known): max_array_size,
  // else what its configuration says (read at the start), else the dialect's default.
  std::int64_t max_array_size() const;

 private:
  // The context check() and approximations() write a probe batch script with.
  static SubmitContext probe_context();
  // One submission: a job, or a whole array (one native submission).
  struct Unit {
    std::int64_t head = 0;  // job id, or the array's job id
    std::int64_t spec_id = 0;
    std::string uid;        // the head's UID, carried in the native job name
    std::vector<std::int64_t> members;
    std::string native_base;  // "" until submitted
    bool is_array = false;
    // Where it is in reaching the scheduler.
    enum class Phase {
      ToSubmit,          // not submitted yet: submitted at next_try
      Submitting,        // its submission runs
      ToFind,            // maybe submitted (a crash, a lost reply): looked up by its UID in the queue
      FindingInQueue,    // that look-up runs
      ToFindInHistory,   // not in the queue: looked up in the history next
      FindingInHistory,  // that look-up runs
      Submitted,         // its native id is known
    };
    Phase phase = Phase::ToSubmit;
    bool busy() const {  // a command about it runs
      return phase == Phase::Submitting || phase == Phase::FindingInQueue || phase == Phase::FindingInHistory;
    }
    double submit_time = 0;
    double next_try = 0, backoff = 0;
    bool cancel_requested = false;
    double cancel_sent = 0;
    std::string waiting_for;  // the REASON shown while it waits on a parent or a throttle
    // Waiting on something another job's change decides (a parent, max_queued): looked
    // at again on such a change, and once a second (a parent on another backend).
    bool held = false;
    // Held by its user (yard hold) before it reached the scheduler: yard keeps it until
    // released, the scheduler never sees it held.
    bool user_held = false;
    // A single job with a retry policy: its dependents are held by the engine until it
    // has ended for good (the scheduler would judge them on its first try's end), and
    // the nodes it failed on, by times, to keep its later tries off.
    bool may_retry = false;
    std::map<std::string, int> failed_on;
    std::string ended_try;  // the scheduler's id of its last try that ended ("": none)
    double queue_looked_at = 0;  // when its look-up in the queue was planned
    // The backend it moves to once the scheduler took it out of its queue ("": none);
    // its cancel is then one that spares a started job (cancel_pending_argv), or, where
    // the scheduler has none, a hold first, then the cancel once a status listing made
    // after the hold still shows it pending (indirect_moves.cpp).
    std::string moving_to;
    bool move_hold_sent = false;
    std::uint64_t move_listing_after = 0;  // its hold took: a listing of this tag or later decides
    // The hold was yard's own, for the move (not its user's): released if the job stays
    // (a scheduler whose hold suspends a job that started meanwhile would keep it stopped).
    bool move_hold_ours = false;
    // Requeued by its user (yard requeue, Slurm's scontrol requeue through the front ends):
    // its run is cancelled, and once it has ended it is submitted again under the same
    // ids (indirect_requeue.cpp); `requeue_hold`: then kept by yard until released.
    bool requeueing = false, requeue_hold = false;
  };
  struct Member {
    std::int64_t id = 0, head = 0;
    std::optional<std::int64_t> index;
    std::string native_id;
    JobState state = JobState::Pending;
    std::string detail;
    double missing_since = 0;   // absent from queue and history since
    bool listed = false;        // in the last status listing (even as ended)
    bool never_satisfied = false;
    // The first command tag planned after the native id became known: a status listing
    // planned before that (commands run side by side) cannot show the job yet.
    std::uint64_t known_from_tag = 0;
  };
  enum class Kind { Submit, Poll, History, Find, FindHistory, Cancel, Probe, Act, QueueLimits, ArrayLimit };
  struct InFlight {
    Kind kind = Kind::Poll;
    std::int64_t head = 0;                // Submit
    std::vector<std::int64_t> members;    // History, Act
    JobAction action = JobAction::Hold;   // Act
    std::int64_t moving = 0;              // Act: the head of a unit held to leave the queue
    std::vector<std::int64_t> heads;      // Find
  };

  // `may_retry`: whether its spec has a retry policy, when the caller holds the spec
  // (else read from the store, once per unit).
  void track(const JobRecord& r, std::optional<bool> may_retry = std::nullopt);
  void apply(const CompletedCommand& done, double now);
  void apply_submit(Unit& u, const CommandResult& r, double now);
  void note_waiting(const Unit& u, const std::string& why);  // the members' REASON while they wait
  void apply_poll(const CommandResult& r, std::uint64_t tag, double now);
  void apply_history(const std::vector<std::int64_t>& asked, const CommandResult& r, double now);
  // A look-up's answer (queue or history format): native base id by UID. Clears the
  // heads' in-flight marks; nothing when the call failed or its output is unreadable.
  std::optional<std::unordered_map<std::string, std::string>> found_by_uid(const std::vector<std::int64_t>& heads,
                                                                           const CommandResult& r, bool queue_format);
  void apply_find(const std::vector<std::int64_t>& heads, const CommandResult& r);
  // yard requeue of running single jobs, the same on every scheduler: their runs cancelled,
  // then each submitted again once it ended (indirect_requeue.cpp); `requeued` is that end.
  Result<std::vector<std::int64_t>> requeue(JobAction action, const std::vector<std::int64_t>& ids,
                                            const std::vector<JobRecord>& jobs, double now);
  void requeued(Member& m, const NativeStatus& s, double now);
  // The scheduler's command for `action` on `members` (one per job where its command takes
  // one job at a time); `moving`: the head of a unit held to leave the queue (0: a user's).
  void plan_action(JobAction action, const std::vector<std::int64_t>& members, std::int64_t moving);
  void apply_act(const InFlight& what, const CommandResult& r, double now);
  void apply_find_history(const std::vector<std::int64_t>& heads, const CommandResult& r);
  void plan_lookups(const std::vector<std::int64_t>& heads, double now);
  void update(Member& m, const NativeStatus& s, const MappedState& mapped, double now);
  // An ended job's last record (`cancelled`: yard asked for its end): tried again,
  // requeued, or finished.
  void conclude(Member& m, const NativeStatus& s, MappedState mapped, bool cancelled, double now);
  void finish(Member& m, JobState to, Transition t, double now);
  // No longer tracked (ended, or gone to another backend): out of every map, and of its
  // unit, which goes once empty and idle.
  void forget(Member& m);
  // A job leaving for another backend (indirect_moves.cpp) that the scheduler ended as
  // asked: `ran` it started first, and stays (false is returned: conclude it); else it is
  // handed over (released_).
  bool hand_over(Member& m, bool ran);
  // Its move given up: it started before the scheduler could take it out.
  void stay(Unit& u, const std::string& why);
  // The next command of a move out of a scheduler's queue without a cancel that spares
  // started jobs: its hold, then its cancel (indirect_moves.cpp).
  void plan_move_by_hold(Unit& u, const std::vector<std::string>& native_ids, double now);
  // The usage of an ended job (its run time x CPUs) charged to its account, for
  // `yard accounts --by target` (indirect_tracking.cpp).
  void charge(std::int64_t id);
  // A preempted job whose spec asks for it (--requeue) goes back to PENDING and is
  // submitted again under the same UID; true if it did. Single jobs only: an array is
  // one submission, and its other elements run on.
  bool requeue_preempted(Member& m, const NativeStatus& s, const MappedState& mapped, double now);
  // A job that ended for a cause its retry policy names goes back to PENDING, to be
  // submitted again after its backoff with the memory and time of its next try; true if
  // it did (indirect_retry.cpp).
  bool try_again(Member& m, const NativeStatus& s, JobState to, const Transition& t, double now);
  // Back to PENDING without a native id, submitted again at `at`, under the same UID.
  void submit_again(Member& m, const Transition& why, double at, double now);
  static std::vector<std::string> avoided_nodes(const Unit& u);
  // The spec of the unit's next submission: a retried job's grown memory and time.
  Result<JobSpec> spec_of_try(const Unit& u);
  // `elements`: the array's element ids as the submit command printed them, if it did.
  void set_native(Unit& u, const std::string& base, const std::vector<std::string>& elements = {});
  void fail_unit(Unit& u, const std::string& why, double now);
  void plan_submission(Unit& u, double now);
  // `cwd`: where the command runs ("": the daemon's directory, /); `stdin_path`: a file
  // it reads on its stdin ("": none).
  void plan(Kind kind, std::vector<std::string> argv, InFlight what, std::string cwd = "", std::string stdin_path = "");
  void retry_later(Unit& u, double now);
  // Whether the scheduler answered a call (`failed`: it did not: timed out, could not be
  // reached, a transient error), and so whether it is down (down_reason()).
  void note_health(bool failed, const std::string& what, double now);
  // A status call to learn whether a down scheduler answers again, when no poll is due.
  void plan_probe(double now);
  // The listing of the queues' limits, when due; its answer.
  void plan_queue_limits(double now);
  void apply_queue_limits(const CommandResult& r, double now);
  // The reading of the scheduler's array limit (Dialect::array_limit_argv), once.
  void plan_array_limit(double now);
  void apply_array_limit(const CommandResult& r, double now);
  // Whether `spec`'s array is within max_array_size(): an error naming both, and where
  // the limit comes from, when it is not.
  Status array_within_limit(const JobSpec& spec) const;
  // The context for submitting `u`; or why it waits (`wait`), or why it can never run (`doomed`).
  Result<SubmitContext> context_for(const Unit& u, const JobSpec& spec, std::string& wait, std::string& doomed);
  Result<SubmitContext> any_dependency(const JobSpec& spec, SubmitContext ctx, std::string& wait, std::string& doomed);
  std::string script_path(const Unit& u) const;
  // Holds `u` back (ToSubmit) with `why` as its jobs' REASON, until a change or `until`.
  void hold(Unit& u, const std::string& why, double until);
  // Why `u` may not be submitted now for a throttle (max_queued, submit_rate), or "".
  std::string throttled(const Unit& u, double now);

  Store& store_;
  const Dialect& dialect_;
  CommandQueue& commands_;
  IndirectConfig config_;
  std::string state_dir_, user_;
  RateLimiter background_;
  std::map<std::int64_t, Unit> units_;  // by head, in submission order
  std::unordered_map<std::int64_t, Member> members_;  // active jobs only
  std::unordered_map<std::string, std::int64_t> by_native_;
  std::unordered_map<std::uint64_t, InFlight> in_flight_;
  std::vector<Command> planned_;
  std::uint64_t next_tag_ = 1;
  bool poll_in_flight_ = false, history_in_flight_ = false, find_in_flight_ = false;
  bool find_history_in_flight_ = false;
  std::uint64_t last_listing_ = 0;  // the tag of the last status listing read
  double next_poll_ = 0, poll_backoff_ = 0;
  std::set<std::int64_t> to_confirm_;  // members gone from the live queue
  bool history_due_ = false;           // the last status cycle left some to confirm
  bool changed_ = false;               // a job was submitted, changed state or ended
  std::size_t queued_ = 0;             // jobs submitted (or being) and not ended
  struct Health {
    int failures_in_row = 0;
    double failing_since = 0;  // the first of those failures
    std::string down_why;      // "" while up
    bool probe_in_flight = false;
    double next_probe = 0, probe_backoff = 0;
  } health_;
  struct QueueReading {
    std::set<std::string> wanted;
    bool listable = false;  // the dialect has a command for them
    bool in_flight = false;
    double next_at = 0;
    QueueListing listing;
  } queues_;
  struct ArrayLimitReading {
    std::optional<std::int64_t> read;  // what the scheduler's configuration says (0: no limit)
    bool readable = false;  // the dialect reads it and the settings file does not say it
    bool in_flight = false, done = false;
    double next_at = 0;
  } array_limit_;
  RateLimiter submits_;
  IndirectStats stats_;
  std::vector<std::int64_t> released_;  // jobs that left for another backend (take_released)
  // The account of the spec charged last (charge()): an array's elements share one spec,
  // read once for all of them, not once per element.
  std::int64_t charged_spec_ = 0;
  std::string charged_account_;
};

}  // namespace yard
