// Readers of Torque 6's output (formats in tests/fixtures/torque/README.md): pure
// functions of the text, tested on the published samples and fuzzed. qsub's answer is
// PBS's ("141.server", "142[].server": parse_pbs_qsub), and a job's native id is its
// short form as for PBS Pro ("141", "142[3]", "142[]": pbs_short_id).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/dialect.h"
#include "backends/pbs/pbs_parse.h"  // PbsAttributes, the PBS family's ids and text reader
#include "core/result.h"

namespace yard {

// `qstat -x [-t] [IDS]`: an optional `<?xml version="1.0"?>`, then one `<Data>` document
// per line (one for the whole queue, one per id asked), each `<Job>` a status. Values
// may hold raw newlines; `<Data></Data>` or nothing at all is no job.
Result<std::vector<NativeStatus>> parse_torque_qstat_xml(std::string_view out);

// `qstat -f [-1]` as text (read_qstat_full_text), times in ctime's form.
Result<std::vector<NativeStatus>> parse_torque_qstat_full(std::string_view out);

// One job's status from its attributes: raw_state job_state, reason its comment, events
// "exit_status=N", "start_count=N" and "walltime_exceeded", exit_code or signal from
// exit_status once it is C (0-255 the job's, 256+N signal N; negative: Torque's own).
// Times are Unix seconds (XML) or ctime's form (text).
NativeStatus torque_status_of(std::string_view job_id, const PbsAttributes& a);

}  // namespace yard
