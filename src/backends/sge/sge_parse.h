// Readers of Grid Engine 8.1.9's output (formats in tests/fixtures/sge/README.md): pure
// functions of the text, tested on captured output and fuzzed. Every error names what
// was wrong and where.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {

// `qsub -terse`: the job id ("12"), also of an array ("12.1-6:1" is job 12).
Result<std::string> parse_qsub_terse(std::string_view out);

// `qstat -xml`: one status per job, and per array element ("12.3"); a pending range of
// elements ("<tasks>3-6:1</tasks>") is one status per element. raw_state is qstat's
// letter code ("r", "hqw", "Eqw"). `qstat -xml -j` of unknown jobs is an empty list.
Result<std::vector<NativeStatus>> parse_qstat_xml(std::string_view xml);

// `qacct -j ...`: one status per accounting record (job, or array element "12.3").
// raw_state is "failed N" (qacct's failure code: 0 none, 37 a limit such as h_rt, 100
// killed), reason qacct's words for it, exit_code its exit_status, signal the signal
// that killed it when it was killed (exit_status 128 + N).
Result<std::vector<NativeStatus>> parse_qacct(std::string_view out);

// "3-6:1", "1,3,5-9:2" (Grid Engine's task ranges) as indices; an error beyond `max`.
Result<std::vector<long long>> parse_task_ranges(std::string_view text, std::size_t max = 1'000'000);

}  // namespace yard
