#include "backends/slurm/slurm_argv.h"

#include <algorithm>

namespace yard {

std::vector<std::string> sbatch_argv(const std::string& script_path) { return {"sbatch", "--parsable", script_path}; }

// The poll lists all of the user's jobs (--me, in Slurm since 20.11) instead of naming
// them with -j, because:
// - `squeue -j` fails (rc 1, "Invalid job id specified") when every id it is given has
//   been purged from the controller, so one forgotten id would break the whole poll;
// - a -j list grows with the number of tracked jobs (argv length, controller work),
//   and the poll must stay one bounded call whatever that number is.
// The engine keeps the lines whose ids it tracks. -r: one line per array element.
// -t all: recently finished jobs too (until MinJobAge), so an end is seen at once,
// with sacct only needed for exit codes and for jobs that left the queue.
std::vector<std::string> squeue_argv() {
  return {"squeue", "--me", "-h", "-r", "-t", "all", "-o", std::string(kSqueueFormat)};
}

// sacct is asked for whole jobs (base ids): it prints every array element and het
// component with its own JobID, and a base id is what every sacct version accepts.
// -X: the allocation only, not its steps. Not -D: only the last run of a requeued job.
std::vector<std::string> sacct_argv(const std::vector<std::string>& native_ids) {
  std::vector<std::string> bases;
  for (auto& id : native_ids) bases.push_back(slurm_base_id(id));
  std::sort(bases.begin(), bases.end());
  bases.erase(std::unique(bases.begin(), bases.end()), bases.end());
  std::string list;
  for (auto& b : bases) {
    if (!list.empty()) list += ',';
    list += b;
  }
  return {"sacct", "-P", "-n", "-X", "--format=" + std::string(kSacctFormat), "-j", list};
}

// scancel takes "12", "12_3" and "12+1" as they are; an unknown id is silently ignored.
std::vector<std::string> scancel_argv(const std::vector<std::string>& native_ids) {
  std::vector<std::string> argv{"scancel"};
  argv.insert(argv.end(), native_ids.begin(), native_ids.end());
  return argv;
}

std::string slurm_base_id(std::string_view native_id) {
  return std::string(native_id.substr(0, native_id.find_first_of("_+")));
}

}  // namespace yard
