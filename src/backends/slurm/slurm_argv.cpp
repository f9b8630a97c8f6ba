#include "backends/slurm/slurm_argv.h"

#include <algorithm>
#include <cmath>
#include <ctime>

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

// A submission's job can only start after yard noted the attempt, itself after the job's
// submit time; sacct's -S leaves out jobs never eligible in the window (held, or waiting
// on a dependency), but those are still in the live queue, which is looked at first.
std::vector<std::string> sacct_find_argv(const std::vector<std::string>& native_names, double since) {
  constexpr double kClockSkew = 600;
  std::vector<std::string> names(native_names);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string list;
  for (auto& n : names) {
    if (!list.empty()) list += ',';
    list += n;
  }
  return {"sacct", "-P", "-n", "-X", "--format=" + std::string(kSacctFormat), "--name=" + list,
          "-S", slurm_local_time(since - kClockSkew)};
}

std::string slurm_local_time(double unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(std::floor(unix_seconds));
  std::tm tm{};
  ::localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

// scancel takes "12", "12_3" and "12+1" as they are; an unknown id is silently ignored.
std::vector<std::string> scancel_argv(const std::vector<std::string>& native_ids) {
  std::vector<std::string> argv{"scancel"};
  argv.insert(argv.end(), native_ids.begin(), native_ids.end());
  return argv;
}

std::vector<std::string> scancel_pending_argv(const std::vector<std::string>& native_ids) {
  std::vector<std::string> argv{"scancel", "--state=PENDING"};
  argv.insert(argv.end(), native_ids.begin(), native_ids.end());
  return argv;
}

std::vector<std::string> scontrol_action_argv(JobAction action, const std::vector<std::string>& native_ids) {
  // No requeue yet: a job requeued by scontrol was once seen to end FAILED (exit 1) after
  // running again, cause not found; until it is, yard requeues only its own jobs.
  if (action != JobAction::Hold && action != JobAction::Release) return {};
  std::string list;
  for (const auto& id : native_ids) list += (list.empty() ? "" : ",") + id;
  // uhold: a user's hold (JobHeldUser), whoever asks, so that its user may release it.
  return {"scontrol", action == JobAction::Hold ? "uhold" : "release", list};
}

std::string slurm_base_id(std::string_view native_id) {
  return std::string(native_id.substr(0, native_id.find_first_of("_+")));
}

}  // namespace yard
