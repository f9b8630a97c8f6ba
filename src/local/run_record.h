// The run record: a small per-job file through which a job's supervisor reports to the
// daemon. The daemon creates and flock()s it before forking the supervisor, which
// inherits the lock and holds it for its whole life; so "lock held" means "supervisor
// alive", even across a crash and restart of the daemon. The supervisor appends
// key=value lines (its pid, the job's pid, finally the outcome); the last value wins.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/job_state.h"

namespace yard {

struct RunOutcome {
  JobState state = JobState::Failed;
  std::int64_t exit_code = 0;
  std::int64_t signal = 0;
  double end_time = 0;
  double cpu_seconds = 0;
  std::int64_t max_rss_bytes = 0;
  std::string reason;
};

struct RunRecord {
  pid_t supervisor_pid = 0;
  pid_t job_pid = 0;
  std::optional<RunOutcome> outcome;
};

RunRecord parse_run_record(std::string_view text);
std::string format_outcome(const RunOutcome& o);

// Appends `line` to the record with one write(2), so a reader sees whole lines.
bool append_record(int fd, const std::string& line);

}  // namespace yard
