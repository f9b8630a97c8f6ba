#include "core/job_action.h"

namespace yard {

std::string job_action_refusal(JobAction action, const JobRecord& job) {
  const std::string who = "job " + std::to_string(job.id) + " (" + std::string(to_string(job.state)) + ")";
  switch (action) {
    case JobAction::Hold:
      return job.state == JobState::Pending ? "" : who + " cannot be held: only a pending job can";
    case JobAction::Release:
      // A scheduler whose hold suspends a job that started meanwhile (a stop, not a hold) shows it
      // running and held: its release resumes it.
      return job.held && !is_terminal(job.state) ? "" : who + " is not held";
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
