// The argv of Flux's commands as the backend runs them: one `flux jobs --json` per status
// cycle for every tracked job (ended ones stay listed until Flux purges them), all of the
// user's jobs for a look-up by UID, flux cancel. The submission's argv is flux_script.h's.
#pragma once

#include <string>
#include <vector>

#include "core/job_action.h"

namespace yard {

std::vector<std::string> flux_jobs_argv(const std::vector<std::string>& job_ids);
// The user's jobs in every state: active and inactive.
std::vector<std::string> flux_jobs_all_argv();
std::vector<std::string> flux_cancel_argv(const std::vector<std::string>& job_ids);
// `flux job urgency ID hold|default`: urgency 0 keeps a pending job from being scheduled,
// its owner's to raise again (to the default 16: an urgency given at submission is not
// restored). One job per command: empty for several ids, and for the requeues.
std::vector<std::string> flux_action_argv(JobAction action, const std::vector<std::string>& job_ids);

}  // namespace yard
