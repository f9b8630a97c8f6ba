// Readers of IBM Spectrum LSF 10.1's output (formats in tests/fixtures/lsf/README.md): pure
// functions of the text, tested on the published samples and fuzzed.
//
// A job's native id is LSF's job id ("2861772"), an array element's "2861772[3]", as
// bkill and bjobs take them.
#pragma once

#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {

// bsub's answer: "Job <2861772> is submitted to queue <snode>." (or "to default queue
// <q>", with or without the period), on any line: a site's wrapper may print first.
Result<std::string> parse_bsub(std::string_view out);

// The fields yard asks bjobs for (`bjobs -o "..." -json`), in its order.
inline constexpr const char* kBjobsFields =
    "jobid stat exit_code exit_reason job_name pend_reason exec_host start_time finish_time";

// `bjobs -a -json -o kBjobsFields IDS`: {"COMMAND":"bjobs","JOBS":N,"RECORDS":[{...}]},
// every value a string. Lines before the JSON ("LSF is processing your request. Please
// wait ...") are skipped; a record with an ERROR key (an id bjobs does not know) is no
// job. An element's id is JOBID[i], i from its name's "[i]". `now` (Unix seconds) dates
// LSF's times, which carry no year: the latest such date not after it.
Result<std::vector<NativeStatus>> parse_bjobs_json(std::string_view out, std::time_t now);

// The wide table of `bjobs -w` (fixed columns, names cut to "*l_cmd_bd)"): id, state and
// name only.
Result<std::vector<NativeStatus>> parse_bjobs_table(std::string_view out);

// "Dec 28 19:56", "Jan  7 09:59 L" (an estimate): the latest such local time not after
// `now`; nothing for "-" or "".
std::optional<double> lsf_time(std::string_view text, std::time_t now);

}  // namespace yard
