// Store: the single source of truth for jobs. SQLite in WAL mode, so the CLI reads while
// the daemon writes. Every change runs in a transaction and is durable (against a crash
// of any Switchyard process) before the caller acts on it.
// Thread safety: one Store per thread; several processes may open the same file.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/flow_record.h"
#include "core/job_spec.h"
#include "core/job_record.h"
#include "core/job_state.h"
#include "core/result.h"
#include "store/sqlite.h"

namespace yard {

// What changes with a state transition; unset fields keep their value.
struct Transition {
  std::string reason;  // also the event's detail
  std::optional<std::string> native_state;
  std::optional<double> start_time, end_time;
  // It never ran after all (a hand-off ended before it started): its planned start goes.
  // A job going back to PENDING loses its start and end times anyway.
  bool never_started = false;
  std::optional<std::string> stdout_path, stderr_path, alloc;
  // Accounting: written when any of these is set.
  std::optional<std::int64_t> exit_code, signal;
  std::optional<double> cpu_seconds;
  std::optional<std::int64_t> max_rss_bytes;
};

// Usage charged to an account: `core_seconds` (run time x CPUs) of job `job_id`, charged at
// `time` (seconds since the epoch) when it ended or was preempted.
struct UsageCharge {
  std::int64_t job_id = 0;
  std::string account;
  double time = 0;
  double core_seconds = 0;
};

// A backend's jobs not ended (Store::active_counts).
struct ActiveCount {
  std::string backend;
  std::int64_t pending = 0, running = 0, unknown = 0;
};

// Usage charged to an account on one backend (the route target its jobs went to).
struct TargetUsage {
  std::string account, backend;
  double core_seconds = 0;
  std::int64_t jobs = 0;
};

struct DependencyEdge {
  std::int64_t job_id, parent_id;
  DependencyKind kind;
};

// A job's REASON and its events' details are excerpts: a scheduler's answer can be
// megabytes (a submit command that printed its whole environment), and it is stored,
// and shown in every `yard status`, once per job.
constexpr std::size_t kMaxReasonBytes = 1000;
std::string excerpt_reason(std::string_view reason);

class Store {
 public:
  // The WAL is checkpointed every 256 pages (1 MiB) and cut back to 1 MiB after: on a
  // small state filesystem a 4 MiB WAL, and its checkpoint, could take all the room.
  static constexpr int kCheckpointPages = 256;
  enum class Mode { ReadWrite, ReadOnly };

  // Opens (creating and migrating in ReadWrite mode) the store at `path`.
  static Result<Store> open(const std::string& path, Mode mode = Mode::ReadWrite);

  // Inserts one job, or one job per array index, PENDING, in one transaction. Every
  // dependency must name a known job, else nothing is written. Returns the new ids.
  Result<std::vector<std::int64_t>> insert_jobs(const JobSpec& spec, double now);

  // Moves a job to `to`, rejecting illegal transitions; records an event.
  Status transition(std::int64_t id, JobState to, const Transition& t, double now);

  Result<std::optional<JobRecord>> job(std::int64_t id);
  // Every job `spec` depends on exists (what insert_jobs checks first).
  Status check_dependencies(const JobSpec& spec);
  // Jobs whose id or array job id is in `ids`; every job when `ids` is empty.
  Result<std::vector<JobRecord>> jobs(const std::vector<std::int64_t>& ids);
  // One page of the jobs `q` asks for, in id order (job_queries.cpp).
  Result<std::vector<JobRecord>> find(const JobQuery& q);
  // The event log after id `after`, oldest first, at most `limit` entries; and the id of
  // its last entry (0 when empty). One indexed read each, whoever asks.
  Result<std::vector<LoggedEvent>> events_after(std::int64_t after, std::size_t limit);
  Result<std::int64_t> last_event_id();
  Result<std::vector<JobRecord>> active_jobs();  // PENDING, RUNNING, UNKNOWN
  Result<std::vector<JobRecord>> active_jobs_of(std::string_view backend);
  // Each backend's jobs pending, running and unknown, by backend name (one statement).
  Result<std::vector<ActiveCount>> active_counts();
  // Indirect backends' bookkeeping (each one statement; group them with a Transaction).
  Status set_native_id(std::int64_t id, std::string_view native_id);
  Status note_submit_attempt(std::int64_t id);
  // Why a job that stays PENDING waits ("" once it does not); a job in any other state
  // keeps its reason.
  Status set_pending_reason(std::int64_t id, std::string_view reason);
  Status request_cancel(std::int64_t id);
  // Holds or releases a job (yard hold|release): its flag, and an event saying `detail`
  // in its current state; a PENDING job's reason becomes `detail` when held, "" when
  // released. One statement each; group them with a Transaction.
  Status set_held(std::int64_t id, bool held, std::string_view detail, double now);
  // A PENDING job moved to another backend (`yard routes move`): its spec becomes `spec`
  // (its backend, queue, account and QOS there), what it had of the old backend goes (its
  // native id, its submission attempts, the nodes it failed on), and an event says
  // `detail`. Refused when the job is no longer PENDING. One statement each; group them
  // with a Transaction.
  Status move_job(std::int64_t id, const JobSpec& spec, std::string_view detail, double now);
  // The backend a job is moving to while its scheduler takes it out of its queue ("": the
  // move is given up, the job stays).
  Status set_moving_to(std::int64_t id, std::string_view backend);
  // A requeued job's run that ended: the next look-up by its UID passes it over
  // (`ended_try`, as for a retry), and the requeue's mark in moving_to is cleared.
  Status end_try(std::int64_t id, std::string_view ended_try);
  // A job tried again for its retry policy: its memory and time for the next try, and one
  // more retry counted (with its transition back to PENDING, in one Transaction); `after`:
  // the time before which it is not tried (its backoff), the nodes its tries failed on and
  // the scheduler's id of the try that ended (JobRecord).
  struct RetryState {
    double not_before = 0;
    std::string_view failed_on, ended_try;
  };
  Status count_retry(std::int64_t id, std::int64_t mem_bytes, std::int64_t walltime_s, const RetryState& after);
  Result<std::vector<JobEvent>> events(std::int64_t id);
  Result<std::vector<DependencyEdge>> dependencies_of_active();
  Result<JobSpec> spec(std::int64_t spec_id);
  Result<std::int64_t> count_jobs();
  // Accounts' usage (one statement; group it with the job's transition in a Transaction).
  Status add_usage(const UsageCharge& c);
  // Every charge, oldest first; with `backend`, of that backend's jobs only.
  Result<std::vector<UsageCharge>> usage(std::string_view backend = {});
  // The charges summed by account and by the backend of the jobs charged.
  Result<std::vector<TargetUsage>> usage_by_target();

  // Submissions by the client's key (a retry after a broken connection gets the same
  // ids; see migration 4). Record one in the transaction that stored its jobs.
  Result<std::optional<std::vector<std::int64_t>>> submission(const std::string& key);
  Status record_submission(const std::string& key, const std::vector<std::int64_t>& ids, double now);

  // Flows (flow_rows.cpp, migration 5): a run of a flow file and its steps, each with its
  // key and its job; each one statement, grouped with the flow's jobs in one Transaction.
  struct NewFlow {
    std::string name, file, run_dir, key;  // key: the client's request key ("": none)
  };
  Result<std::int64_t> insert_flow(const NewFlow& f, double now);
  Status insert_flow_step(std::int64_t flow_id, const FlowStepRecord& step);
  // The step of key `key` in the latest flow that has one, its state from its jobs now,
  // and its jobs' ids.
  struct KeyedStep {
    FlowStepRecord step;
    std::vector<std::int64_t> ids;
  };
  Result<std::optional<KeyedStep>> latest_step_with_key(const std::string& key);
  Result<std::optional<std::int64_t>> flow_with_key(const std::string& key);
  // Flows newest first (at most `limit`, 0: all), or one, with their steps counted.
  Result<std::vector<FlowRecord>> flows(std::size_t limit);
  Result<std::optional<FlowRecord>> flow(std::int64_t id);
  // A flow's steps in order (and each one's job ids into `ids`, when asked).
  Result<std::vector<FlowStepRecord>> flow_steps(std::int64_t flow_id,
                                                 std::vector<std::vector<std::int64_t>>* ids = nullptr);
  // Known digests of these paths (one per path, digest "" when unknown); record one.
  Result<std::vector<FileDigest>> file_digests(const std::vector<std::string>& paths);
  Status record_file_digest(const FileDigest& d);

  // The first write failure since this store was opened (sql::Fault), or "": after one,
  // nothing more is written through this connection.
  const std::string& fault() const { return db_.fault(); }
  // The daemon's: the WAL checkpointed after its replies, not in a commit (sqlite.h).
  void defer_checkpoints() { db_.defer_checkpoints(kCheckpointPages); }
  void checkpoint_if_due() { db_.checkpoint_if_due(); }

  // The whole store as this connection sees it, copied to a new file (store_file.h).
  Status copy_to(const std::string& dest) const { return db_.copy_to(dest); }

  // Groups many changes into one transaction (one fsync-free WAL commit): commit() it,
  // or it rolls back when it goes out of scope.
  sql::Transaction transaction() { return sql::Transaction(db_); }

 private:
  explicit Store(sql::Db db) : db_(std::move(db)) {}
  Result<std::vector<JobRecord>> query(const std::string& where, const std::vector<std::int64_t>& args);
  // A prepared statement kept for reuse; an error (never null) if it cannot be prepared.
  Result<sql::Statement*> cached(const char* key, const char* sql_text);
  // A spec row, its environment stored once in `environments` (spec_rows.cpp).
  Result<std::int64_t> insert_spec(const JobSpec& spec);

  sql::Db db_;
  std::map<std::string, std::unique_ptr<sql::Statement>> stmts_;
  // The environment insert_spec stored or found last, and its row.
  std::map<std::string, std::string> last_env_;
  std::optional<std::int64_t> last_env_id_;
};

}  // namespace yard
