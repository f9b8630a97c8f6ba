// Readers of HTCondor's output (formats in tests/fixtures/htcondor/README.md): pure
// functions of the text, tested on the published samples and fuzzed.
//
// A job's native id is HTCondor's cluster.proc ("6.0"); a submission's, its cluster ("6").
// A status keeps JobStatus's number as its raw state and, as events, what the state map
// reads beside it: "HoldReasonCode=34", "HoldReasonSubCode=102", "NumJobStarts=2".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {

// condor_submit's answer: the cluster of `-terse`'s "6.0 - 6.0" (or "7.0 - 7.9"), or of
// the default "1 job(s) submitted to cluster 6.", on any line.
Result<std::string> parse_condor_submit(std::string_view out);

// condor_q's or condor_history's -json ("[\n{ad}\n,\n{ad}\n]"; nothing at all when no job
// matched) or -jsonl (an ad a line). Values that are expressions ("\/Expr(...)\/") count
// as undefined.
Result<std::vector<NativeStatus>> parse_condor_ads(std::string_view out);

// The event's value ("HoldReasonCode" in "HoldReasonCode=34"), if `s` has it.
std::optional<long long> condor_event(const NativeStatus& s, std::string_view name);

}  // namespace yard
