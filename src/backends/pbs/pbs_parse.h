// Readers of PBS Pro / OpenPBS output (formats in tests/fixtures/pbs/README.md): pure
// functions of the text, tested on the published samples and fuzzed. Every error names
// what was wrong and where.
//
// A job's native id is kept as its sequence number without the server's name ("123",
// an array's subjob "123[4]", the array itself "123[]"): the tables cut server names
// ("49230.gc-prd-hpca"), and qstat, qdel and -W depend take the bare number.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {

// `qsub`'s answer: "49230.gc-prd-hpcadm", or "123[].server" for an array; a site's
// banner may come before it. The sequence number ("49230").
Result<std::string> parse_pbs_qsub(std::string_view out);

// A job's attributes as qstat prints them, flattened: "Resource_List.walltime" ->
// "00:00:30"; numbers as their text.
using PbsAttributes = std::map<std::string, std::string, std::less<>>;

// `qstat -x -f -F json [-t] IDS`: one status per job, subjob and array. Lines before
// the JSON (a table, PR #2675) are skipped; no "Jobs" key means no job matched. When the
// JSON does not parse, its Variable_List members (where every known printer bug sits:
// `005`, BASH_FUNC_ values, escapes) are cut and it is read again; else the error names
// the line.
Result<std::vector<NativeStatus>> parse_pbs_qstat_json(std::string_view out);

// `qstat -f [-x]` as text: "Job Id: ID" then "    name = value" lines, a long value
// continued on lines that start with a tab (PBS Pro) or more spaces (Torque), joined as
// they are, without a separator; a line at column 0 is a raw newline inside a value.
// Each job's id and attributes; PBS Pro's and Torque's alike.
Result<std::vector<std::pair<std::string, PbsAttributes>>> read_qstat_full_text(std::string_view out);
Result<std::vector<NativeStatus>> parse_pbs_qstat_full(std::string_view out);

// The default table of `qstat [-x]` (ids and names cut to their columns): id, name,
// state letter only.
Result<std::vector<NativeStatus>> parse_pbs_qstat_table(std::string_view out);

// One job's status from its attributes (both readers above): raw_state job_state,
// reason its comment, events "Exit_status=N", "substate=N", "run_count=N" and
// "walltime_exceeded" (it used more than its Resource_List.walltime), exit_code or
// signal from Exit_status (0-255 the job's; 256+N killed by signal N; negative: PBS's
// own JOB_EXEC_* codes, in the events only).
NativeStatus pbs_status_of(std::string_view job_id, const PbsAttributes& a);

// "123.server" -> "123", "123[4].server" -> "123[4]", "123[]" -> "123[]"; nothing for
// what is not a PBS job id.
std::optional<std::string> pbs_short_id(std::string_view full_id);

}  // namespace yard
