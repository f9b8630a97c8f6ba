// The run record: a small per-job file through which the job host reports to the
// daemon. The daemon writes the job's id in it and flock()s it before handing it to the
// host, which keeps it open, and so locked, while the job runs; so "lock held" means
// "the job is supervised", even across a crash and restart of the daemon. The host
// appends key=value lines (its pid, the job's pid, finally the outcome); the last value
// wins. (Files are reused from job to job: record_slots.h.)
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
  std::int64_t job_id = 0;  // written by the daemon when it creates the record
  std::int64_t after = 0;   // a hand-off's predecessor (written by the daemon too)
  pid_t supervisor_pid = 0;
  pid_t job_pid = 0;
  double start_time = 0;    // when the host started the job (0: not started)
  std::optional<RunOutcome> outcome;
};

RunRecord parse_run_record(std::string_view text);
std::string format_outcome(const RunOutcome& o);

// The whole text of a record file ("" if it cannot be read).
std::string read_record_file(const std::string& path);

// Appends `line` to the record with one write(2), so a reader sees whole lines.
bool append_record(int fd, const std::string& line);

}  // namespace yard
