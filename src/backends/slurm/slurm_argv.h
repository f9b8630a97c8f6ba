// The command lines of the Slurm dialect. Only argv vectors: the engine's command
// runner executes them, never through a shell.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/job_action.h"

namespace yard {

// The formats the parsers in slurm_parse.h read. The job name is last in both: it is
// the only free text and may itself contain '|'.
inline constexpr std::string_view kSqueueFormat = "%i|%T|%r|%j";
inline constexpr std::string_view kSacctFormat = "JobID,JobIDRaw,State,ExitCode,Start,End,Elapsed,NodeList,JobName";

std::vector<std::string> sbatch_argv(const std::string& script_path);
std::vector<std::string> squeue_argv();
std::vector<std::string> sacct_argv(const std::vector<std::string>& native_ids);
// The user's jobs named `native_names` that were eligible since `since` (Unix seconds;
// sacct's -S in local time, with a margin for clock skew between this host and the
// controller), one line each as sacct_argv's.
std::vector<std::string> sacct_find_argv(const std::vector<std::string>& native_names, double since);
// Unix seconds as sacct's -S/-E read them: YYYY-MM-DDTHH:MM:SS in local time.
std::string slurm_local_time(double unix_seconds);
std::vector<std::string> scancel_argv(const std::vector<std::string>& native_ids);
// Only those still pending: the controller skips a job that started.
std::vector<std::string> scancel_pending_argv(const std::vector<std::string>& native_ids);

// scontrol uhold|release for a job list ("12,13_4"): a user's hold (JobHeldUser) even
// when an operator asks, so that the user may release it. Empty for the requeues.
std::vector<std::string> scontrol_action_argv(JobAction action, const std::vector<std::string>& native_ids);

// "12_3" -> "12", "12+1" -> "12", "12" -> "12".
std::string slurm_base_id(std::string_view native_id);

}  // namespace yard
