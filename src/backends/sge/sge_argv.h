// The command lines of the Grid Engine dialect. Only argv vectors: the engine's command
// runner executes them, never through a shell.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/job_action.h"

namespace yard {

std::vector<std::string> qsub_argv(const std::string& script_path);
// Every job of `user` in the queue, one XML document (sge_parse.h reads it).
std::vector<std::string> qstat_argv(const std::string& user);
// The accounting records of `user`'s Switchyard jobs that ended since `since` (Unix
// seconds, less a margin for clock skew): one call whatever the number of jobs, as qacct
// takes one job id or one name pattern per call.
std::vector<std::string> qacct_argv(const std::string& user, double since);
std::vector<std::string> qdel_argv(const std::vector<std::string>& native_ids);
// qhold -h u / qrls -h u: a user's hold (hqw), which its owner may release; Grid Engine
// requeues no running job of a user's asking (qmod -rj wants a rerunnable job and an
// operator): empty for the requeues.
std::vector<std::string> sge_action_argv(JobAction action, const std::vector<std::string>& native_ids);

// Unix seconds as qacct's -b reads them: [[CC]YY]MMDDhhmm[.SS] in local time.
std::string sge_local_time(double unix_seconds);

}  // namespace yard
