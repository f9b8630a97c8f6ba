// Readers of OAR 2.5.9's output (formats in tests/fixtures/oar/README.md): pure
// functions of the text, tested on captured output and fuzzed. Every error names what
// was wrong and where.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {

// What `oarsub` printed: its OAR_JOB_ID lines (one per array element, in their order)
// and OAR_ARRAY_ID. A refusal ("OAR_JOB_ID=-5", or no id at all) is an error carrying
// OAR's own lines (the admission rules' and the scheduler's words).
struct OarSubmission {
  std::vector<std::string> job_ids;
  std::string array_id;  // the first job's id for an array; empty for a single job
};
Result<OarSubmission> parse_oarsub(std::string_view out, std::string_view err);

// `oarstat -J [-f] ...`: a JSON object of jobs by id. raw_state is OAR's state
// ("Terminated", "Error", ...); exit_code and signal come from the raw wait status OAR
// records (768 is exit 3) when it recorded one; events are the event types (-f only);
// reason is OAR's message; submission_id the array's id (the job's own for a single
// job). An empty output (oarstat of unknown ids prints nothing) is
// no job.
Result<std::vector<NativeStatus>> parse_oarstat_json(std::string_view out);

}  // namespace yard
