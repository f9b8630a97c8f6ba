// LocalBackend, part: what a user does to a job besides cancelling it (core/job_action.h).
// A held job stays pending, out of the queue (JobQueue::hold), its flag in the store so a
// restarted daemon keeps it there; a requeued running job is stopped as a preemption
// stops one (the host reports PENDING) and queued again under its id.
#include "local/local_backend.h"

#include <algorithm>

namespace yard {

Result<std::vector<std::int64_t>> LocalBackend::act(JobAction action, const std::vector<std::int64_t>& ids,
                                                   const std::vector<JobRecord>& jobs) {
  // Every job named by its own id must allow the action, or nothing is done; an array's
  // elements named by the array's id are those that allow it.
  std::vector<std::int64_t> acting;
  for (const auto& j : jobs) {
    if (j.backend != name_) continue;
    const bool named = std::find(ids.begin(), ids.end(), j.id) != ids.end();
    std::string why = job_action_refusal(action, j);
    const bool requeue = action == JobAction::Requeue || action == JobAction::RequeueHold;
    if (why.empty() && requeue && !running_.count(j.id)) why = "job " + std::to_string(j.id) + " is not running here yet";
    if (why.empty()) acting.push_back(j.id);
    else if (named) return err(why);
  }
  const double now = clock_.wall();
  for (auto id : acting) {
    if (action == JobAction::Requeue || action == JobAction::RequeueHold) {
      auto& run = running_.at(id);
      if (!run.requeueing && signal_job(run, preempt_signal())) run.requeueing = true;
      user_requeues_.insert(id);
    }
    if (action == JobAction::Release) {
      if (auto s = store_.set_held(id, false, "released (yard release)", now); !s) return s.failure();
      queue_.release(id);
    } else if (action != JobAction::Requeue) {
      if (auto s = store_.set_held(id, true, held_detail(action), now); !s) return s.failure();
      queue_.hold(id);
    }
  }
  return acting;
}

}  // namespace yard
