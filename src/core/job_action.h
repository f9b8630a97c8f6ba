// What a user may do to a job besides cancelling it (yard hold|release|requeue, Slurm's
// scontrol hold|release|requeue|requeuehold through its front end): keep a pending job
// from starting, let it start again, or stop a running one and put it back in the queue.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/job_record.h"

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

// Why `job` does not allow `action` ("": it does): only a pending job is held, only a
// held one released, only a running one requeued. Every backend asks this, so the words
// are the same whatever runs the job.
std::string job_action_refusal(JobAction action, const JobRecord& job);

// The REASON a job held by `action` (Hold or RequeueHold) shows.
const char* held_detail(JobAction action);

}  // namespace yard
