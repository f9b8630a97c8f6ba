// A flow as the store holds it and the daemon reports it: its steps, each with its key
// (what makes its result: flow/step_key.h) and the job that gives that result, which this
// flow submitted, or found already running or done under the same key and took as its own
// (a flow run again never submits a finished or running step twice).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/job_state.h"

namespace yard {

// Where a step's job came from.
enum class StepOrigin {
  Submitted,  // this flow submitted it
  Attached,   // a job of the same key was pending or running: followed, not submitted again
  UpToDate,   // a job of the same key completed and its outputs are there: not run again
};
const char* to_string(StepOrigin o);
std::optional<StepOrigin> step_origin_from(std::string_view s);

struct FlowStepRecord {
  std::int32_t index = 0;  // its place in the flow (needs point to earlier places)
  std::string name, key;
  std::string parts;        // what the key was made of (flow/step_key.h), a line each
  std::int64_t job_id = 0;  // the job, or the first element of an array
  bool alone = false;       // job_id alone, though it heads an array (a packed step's element)
  StepOrigin origin = StepOrigin::Submitted;
  // The step's state from its jobs': COMPLETED when all completed, a failure when any
  // ended so (the first one's), RUNNING when any runs, else PENDING.
  JobState state = JobState::Pending;
  std::int32_t jobs = 0, jobs_ended = 0;
  // Counts one of the step's jobs into `state` (start from jobs == 0).
  void tally(JobState job_state);
};

struct FlowRecord {
  std::int64_t id = 0;
  std::string name, file, run_dir;
  double submit_time = 0;
  std::int64_t steps = 0;
  // Steps by state (the step's, as above) and by origin.
  std::int64_t pending = 0, running = 0, completed = 0, failed = 0;
  std::int64_t submitted = 0, attached = 0, up_to_date = 0;
  bool ended() const { return pending == 0 && running == 0; }
  // Counts one step into the totals.
  void count(const FlowStepRecord& step);
};

// A file's content digest and what it was taken of: the same path, size, modification
// time and inode are taken for the same content without reading it again.
struct FileDigest {
  std::string path;
  std::int64_t size = 0, mtime_ns = 0, inode = 0;
  std::string digest;  // "" when not known
};

}  // namespace yard
