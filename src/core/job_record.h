// A job as the store holds it and the daemon reports it (protocol/job_wire.h), and the
// questions a client may ask about jobs: which ones (a JobQuery, paged by a cursor) and
// what happened to them (the event log, in order, each event with its id).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/job_state.h"

namespace yard {

struct JobRecord {
  std::int64_t id = 0;
  std::string uid;
  std::int64_t spec_id = 0;
  std::string name, backend;
  std::optional<std::int64_t> array_job_id, array_index;
  int array_max_running = 0;
  int priority = 0;
  int cpus = 1;
  std::int64_t mem_bytes = 0;
  int gpus = 0;
  std::int64_t walltime_s = 0;
  JobState state = JobState::Pending;
  std::string reason, native_state;
  double submit_time = 0;
  std::optional<double> start_time, end_time;
  std::string stdout_path, stderr_path, alloc;
  // Accounting, known once the job ended.
  std::optional<std::int64_t> exit_code, signal;
  std::optional<double> cpu_seconds;
  std::optional<std::int64_t> max_rss_bytes;
  // Indirect backends: the scheduler's id ("" until known), submission attempts so far,
  // and whether a cancel was asked for.
  std::string native_id;
  int submit_attempts = 0;
  // Times it was tried again for its retry policy (core/retry_policy.h); its next try not
  // before `retry_not_before` (the policy's backoff: 0, none); the nodes its tries failed on
  // with the times each did, "node=2,other=1" (those of two or more are kept off); and the
  // scheduler's id of its last try that ended, which a restarted daemon finding it by the
  // job's UID does not take for the next try.
  int retries = 0;
  double retry_not_before = 0;
  std::string failed_on;
  std::string ended_try;
  // The backend it is moving to while its scheduler takes it out of its queue
  // (`yard routes move`), or "".
  std::string moving_to;
  // Held by its user (yard hold, scontrol hold): it does not start until released.
  bool held = false;
  bool cancel_requested = false;
};

struct JobEvent {
  double time = 0;
  JobState state = JobState::Pending;
  std::string detail;
};

// One entry of the store's event log: a state change of one job, with the log's id
// (increasing: a client that read up to id N asks for what follows N) and what a client
// filters on.
struct LoggedEvent {
  std::int64_t id = 0;
  std::int64_t job_id = 0;
  std::optional<std::int64_t> array_job_id, array_index;
  std::string name, backend;
  JobEvent event;
};

// Which jobs a client asks for; an empty field does not filter. Jobs come in id order,
// `limit` at a time (0: all), after the job id `after` (the cursor of the page before).
struct JobQuery {
  std::vector<std::int64_t> ids;  // jobs, and arrays by their first id
  std::vector<JobState> states;
  std::string name, backend;
  std::optional<std::int64_t> array_job_id;
  std::optional<double> submitted_after, submitted_before;  // seconds since the epoch
  std::int64_t after = 0;
  std::size_t limit = 0;
};

}  // namespace yard
