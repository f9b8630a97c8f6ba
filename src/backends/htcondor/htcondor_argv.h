// The argv of HTCondor's commands as the backend runs them: condor_submit of a submit
// description, one condor_q per status cycle for every tracked job (by cluster), one
// condor_history for jobs that left the queue (completed and removed jobs do at once),
// the user's jobs for a look-up by UID, condor_rm.
#pragma once

#include <string>
#include <vector>

#include "core/job_action.h"

namespace yard {

// The job attributes every listing asks for, in -attributes' form.
extern const char* const kCondorAttributes;

std::vector<std::string> condor_submit_argv(const std::string& description_path);
// condor_q's arguments are clusters and cluster.proc ids: an array's elements by their
// cluster once.
std::vector<std::string> condor_q_argv(const std::vector<std::string>& job_ids);
std::vector<std::string> condor_q_user_argv(const std::string& user);
// -completedsince ends the scan of the history file at older jobs.
std::vector<std::string> condor_history_argv(const std::vector<std::string>& job_ids, double since);
std::vector<std::string> condor_history_user_argv(const std::string& user, double since);
std::vector<std::string> condor_rm_argv(const std::vector<std::string>& job_ids);
// condor_hold / condor_release: a user's hold (JobStatus 5, HoldReasonCode 1), its owner's
// to release; requeues are not sent: empty.
std::vector<std::string> condor_action_argv(JobAction action, const std::vector<std::string>& job_ids);

}  // namespace yard
