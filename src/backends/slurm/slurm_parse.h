// Parsers of sbatch, squeue and sacct output, in the formats slurm_argv.h asks for.
// Pure functions of the text: a malformed line is an error naming its number and text,
// never a guess.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {

// `sbatch --parsable` prints "ID" or "ID;cluster".
Result<std::string> parse_sbatch_parsable(std::string_view out);

// `squeue -h -o '%i|%T|%r|%j'`: id, state, reason ("None" = none), name (last: it
// may itself contain '|').
Result<std::vector<NativeStatus>> parse_squeue(std::string_view out);

// `sacct -P -n -X --format=JobID,JobIDRaw,State,ExitCode,Start,End,Elapsed,NodeList,JobName`.
Result<std::vector<NativeStatus>> parse_sacct(std::string_view out);

// A Slurm job id as squeue and sacct print it: "12", "12_3", "12_[3-5%2]", "12+1".
bool is_slurm_job_id(std::string_view id);

// sacct's "YYYY-MM-DDTHH:MM:SS" in local time to Unix seconds; "Unknown", "None" and
// "" are nullopt. An error for anything else.
Result<std::optional<double>> parse_slurm_time(std::string_view text);

}  // namespace yard
