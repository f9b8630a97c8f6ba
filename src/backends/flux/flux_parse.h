// Readers of Flux's output (formats in tests/fixtures/flux/README.md): pure functions of
// the text, tested on the published samples and fuzzed.
//
// A job's native id is its F58 id in ASCII ("f3croSDd", flux_ids.h). A status keeps the
// job's state as its raw state, with the result after it once inactive ("INACTIVE
// FAILED"), and as events what the state map reads beside it: "exception=node-failure".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {

// flux submit's or flux batch's answer: a job id a line (one for each copy of --cc), in
// ASCII; an error if a line holds anything else or there is none.
Result<std::vector<std::string>> parse_flux_submit(std::string_view out);

// `flux jobs --json`: one job's object when one id was asked for, else {"jobs": [...]};
// also job-list's own records, a JSON object a line, whose states and results are
// numbers (NEW 1 ... INACTIVE 64; COMPLETED 1, FAILED 2, CANCELED 4, TIMEOUT 8) and
// whose exception is in flat keys. Empty output is no job.
Result<std::vector<NativeStatus>> parse_flux_jobs(std::string_view out);

// flux-core's returncode of an inactive job (info.py): -signal when killed by one, the
// exit status otherwise, -128 when cancelled before it ran, 1 when it failed without a
// wait status; nothing while it is active.
std::optional<int> flux_returncode(bool inactive, std::string_view result, std::optional<long long> waitstatus);

}  // namespace yard
