// The job state machine shared by every backend. Native states of each scheduler map
// onto these; a native state nobody understands becomes UNKNOWN with its raw text kept.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace yard {

enum class JobState {
  Pending,
  Running,
  Completed,
  Failed,
  Cancelled,
  Timeout,
  OutOfMemory,
  NodeFail,
  Lost,
  Unknown,
};

std::string_view to_string(JobState s);
std::optional<JobState> parse_job_state(std::string_view text);

// True for states a job never leaves (its outcome is known and final).
bool is_terminal(JobState s);

// True if a job in `from` may move to `to`. Terminal states are final; UNKNOWN may move
// anywhere (we learn the truth later); RUNNING may go back to PENDING (requeue).
bool is_legal_transition(JobState from, JobState to);

}  // namespace yard
