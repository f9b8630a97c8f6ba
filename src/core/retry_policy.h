// When a job that ended badly is run again, by its cause as the backend recorded it (the
// local backend's own record, sacct or its like: its end state), never by guessing
// from an exit code: an exit code is a cause only when listed. Each try may ask for more
// memory and time, up to a cap. Workflow steps set it (`retry:` in a flow file).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/job_state.h"
#include "core/result.h"

namespace yard {

struct RetryPolicy {
  int times = 0;                 // tries after the first
  std::vector<JobState> on;      // OUT_OF_MEMORY, TIMEOUT, NODE_FAIL, LOST (and FAILED: any exit)
  std::vector<std::int64_t> exit_codes;  // a FAILED job with one of these exit codes
  double backoff_s = 0;          // wait before each try
  double grow_mem = 1, grow_time = 1;    // factors for each try
  std::uint64_t cap_mem_bytes = 0;       // 0: none
  std::int64_t cap_time_s = 0;           // 0: none

  // Whether a job that ended in `state` with `exit_code` is tried again (tries left aside).
  bool covers(JobState state, std::optional<std::int64_t> exit_code) const;
  // The memory and time of try `retry` (1, 2, ...) from the first try's.
  std::uint64_t mem_for(std::uint64_t first, int retry) const;
  std::int64_t time_for(std::int64_t first, int retry) const;
};

// The causes a policy may name, as `yard` and flow files write them.
Result<JobState> retry_cause(std::string_view name);
Status validate(const RetryPolicy& p);

nlohmann::json retry_to_json(const RetryPolicy& p);
RetryPolicy retry_from_json(const nlohmann::json& j);  // throws on a malformed object

}  // namespace yard
