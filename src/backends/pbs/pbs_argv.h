// The PBS Pro / OpenPBS commands the backend runs, as argv vectors.
#pragma once

#include <string>
#include <vector>

#include "core/job_action.h"

namespace yard {

std::vector<std::string> pbs_qsub_argv(const std::string& script_path);
// One qstat for every tracked job, ended ones included (-x), arrays with their subjobs
// (-t, each array once as "123[]"). Explicit ids always: -u and -a mix a table into the
// JSON (OpenPBS PR #2675), and -f with -u is refused.
std::vector<std::string> pbs_qstat_argv(const std::vector<std::string>& native_ids);
// Every job the server knows, ended ones included: the look-up of a submission by the
// UID in its name.
std::vector<std::string> pbs_qstat_all_argv();
std::vector<std::string> pbs_qdel_argv(const std::vector<std::string>& native_ids);
// qhold -h u / qrls -h u: a user's hold (state H), its owner's to release; qrerun is an
// operator's: empty for the requeues.
std::vector<std::string> pbs_action_argv(JobAction action, const std::vector<std::string>& native_ids);

}  // namespace yard
