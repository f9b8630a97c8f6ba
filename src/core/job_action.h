// What a user may do to a job besides cancelling it (yard hold|release|requeue, Slurm's
// scontrol hold|release|requeue|requeuehold through its front end): keep a pending job
// from starting, let it start again, or stop a running one and put it back in the queue.
#pragma once

#include <optional>
#include <string_view>

namespace yard {

enum class JobAction {
  Hold,         // a pending job waits until released (kept across a daemon restart)
  Release,      // a held job may start again
  Requeue,      // a running job is stopped and pending again, under its id
  RequeueHold,  // the same, then held
};

constexpr std::string_view to_string(JobAction a) {
  switch (a) {
    case JobAction::Hold: return "hold";
    case JobAction::Release: return "release";
    case JobAction::Requeue: return "requeue";
    case JobAction::RequeueHold: return "requeue_hold";
  }
  return "hold";
}

constexpr std::optional<JobAction> job_action_from(std::string_view s) {
  for (JobAction a : {JobAction::Hold, JobAction::Release, JobAction::Requeue, JobAction::RequeueHold})
    if (to_string(a) == s) return a;
  return std::nullopt;
}

}  // namespace yard
