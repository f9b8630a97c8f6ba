#include "core/job_action.h"

namespace yard {

std::string job_action_refusal(JobAction action, const JobRecord& job) {
  const std::string who = "job " + std::to_string(job.id) + " (" + std::string(to_string(job.state)) + ")";
  switch (action) {
    case JobAction::Hold:
      return job.state == JobState::Pending ? "" : who + " cannot be held: only a pending job can";
    case JobAction::Release:
      return job.held && job.state == JobState::Pending ? "" : who + " is not held";
    case JobAction::Requeue:
    case JobAction::RequeueHold:
      return job.state == JobState::Running ? "" : who + " cannot be requeued: only a running job can";
  }
  return "";
}

const char* held_detail(JobAction action) {
  return action == JobAction::RequeueHold ? "requeued and held (yard requeue --hold): it waits until yard release"
                                          : "held (yard hold): it waits until yard release";
}

}  // namespace yard
