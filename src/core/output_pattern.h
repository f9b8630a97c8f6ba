// Output file patterns (sbatch -o/-e) expanded as Slurm expands them for a batch job
// (man sbatch, "filename pattern"; slurmd's common/fname.c):
//   %%  a percent sign          %j, %J  the job id (a batch job has no step to add)
//   %A  the array's job id (the job's own id when it is not in an array)
//   %a  the array index (4294967294, Slurm's NO_VAL, when it is not in an array)
//   %N  the node's short hostname  %n  the node id: 0, the batch script's first node
//   %t  the task id: 0             %s  the step: "batch"
//   %u  the user name              %x  the job name
// A number between % and the letter zero-pads a numeric value to that width, at most 10
// as in Slurm (%3a and %03a give 007); %N %s %u %x ignore it. A pattern that holds a
// backslash is not expanded at all, and loses its backslashes ("\\" keeps one), as in
// Slurm. Kept as written: an unknown letter (%q, %5q), a % at the end, and %N when the
// node is not known (an indirect backend's job: its scheduler picks the node).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace yard {

struct PatternValues {
  std::int64_t job_id = 0;
  std::string name;
  std::int64_t array_job_id = 0;
  std::optional<std::int64_t> array_index;
  std::string user;
  std::optional<std::string> node;  // short hostname
};

std::string expand_output_pattern(std::string_view pattern, const PatternValues& v);

// A name (a flow step's, a foreach's) as one file name inside an output pattern: '/'
// becomes '_', and '%' is doubled so that it stays itself.
std::string name_in_pattern(std::string_view name);

// The %-sequence that starts at pattern[pos] (a '%'): its zero-padding width (capped at
// 10) and the position of its letter (pattern.size() when the pattern ends first).
struct PatternSequence {
  std::size_t width = 0;
  std::size_t letter = 0;
};
PatternSequence read_pattern_sequence(std::string_view pattern, std::size_t pos);

// Slurm's --open-mode: whether a job's output files are truncated when it starts (the
// default, as Slurm's with JobFileAppend=0) or appended to. Every start counts: a
// requeued or preempted job truncates its files again unless it asked for append.
enum class OpenMode { Truncate, Append };
// As sbatch: the first letter decides (a/A append, t/T truncate); nullopt otherwise.
std::optional<OpenMode> parse_open_mode(std::string_view text);

}  // namespace yard
