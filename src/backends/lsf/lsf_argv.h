// The LSF commands the backend runs, as argv vectors.
#pragma once

#include <string>
#include <vector>

#include "core/job_action.h"

namespace yard {

// bsub alone: the script comes on its stdin, the only way bsub reads its #BSUB lines
// (unless a site sets LSB_BSUB_PARSE_SCRIPT).
std::vector<std::string> lsf_bsub_argv();
// One bjobs for every tracked job, ended ones included (-a: DONE and EXIT jobs stay for
// CLEAN_PERIOD), each array once by its id (which lists every element).
std::vector<std::string> lsf_bjobs_argv(const std::vector<std::string>& native_ids);
// The user's jobs: the look-up of a submission by the UID in its name.
std::vector<std::string> lsf_bjobs_user_argv(const std::string& user);
// bkill takes "12" and an element "12[3]" as they are.
std::vector<std::string> lsf_bkill_argv(const std::vector<std::string>& native_ids);
// bstop / bresume: a pending job stopped is PSUSP, its owner's to resume (a job that
// started first would be suspended, USUSP: yard asks only of pending ones); brequeue is
// the owner's too, but requeues are not sent yet: empty.
std::vector<std::string> lsf_action_argv(JobAction action, const std::vector<std::string>& native_ids);

}  // namespace yard
