// IndirectBackend, part: yard requeue (and Slurm's scontrol requeue through the front
// ends) on every scheduler, done by yard rather than by each scheduler's own requeue: the
// job's run is cancelled with the scheduler's cancel, and once the job has ended (however:
// it may have ended by itself meanwhile) it is submitted again under the same yard id,
// pending with the reason why, its old run passed over by any later look-up by its UID.
// The request is stored at once (jobs.moving_to holds its mark), so that a daemon stopped
// between the cancel and the end finishes it. Single jobs only: an array is one submission
// to its scheduler, whose elements cannot be submitted again one by one.
#include <algorithm>

#include "backends/indirect_backend.h"
#include "backends/indirect_shared.h"

namespace yard {

using namespace indirect;  // NOLINT: the engine's own helpers (log, kRequeueMark)

Result<std::vector<std::int64_t>> IndirectBackend::requeue(JobAction action, const std::vector<std::int64_t>& ids,
                                                           const std::vector<JobRecord>& jobs, double now) {
  std::vector<std::int64_t> acting;
  for (const auto& j : jobs) {
    const bool named = std::find(ids.begin(), ids.end(), j.id) != ids.end();
    std::string why = job_action_refusal(action, j);
    auto m = members_.find(j.id);
    const Unit* u = m == members_.end() ? nullptr : &units_.at(m->second.head);
    const std::string job = "job " + std::to_string(j.id);
    if (why.empty() && (!u || m->second.native_id.empty()))
      why = job + " has not reached " + std::string(dialect_.name()) + "'s queue yet";
    else if (why.empty() && u->is_array)
      why = job + " is an element of array " + std::to_string(u->head) + ", which " + std::string(dialect_.name()) +
            " runs as one submission: yard requeues single jobs there (the local backend requeues elements)";
    else if (why.empty() && (u->cancel_requested || !u->moving_to.empty()))
      why = job + " is being " + (u->requeueing ? "requeued" : u->moving_to.empty() ? "cancelled" : "moved") + " already";
    if (why.empty()) acting.push_back(j.id);
    else if (named) return err(why);
  }
  const bool hold = action == JobAction::RequeueHold;
  for (auto id : acting) {
    Unit& u = units_.at(members_.at(id).head);
    if (auto s = store_.set_moving_to(id, hold ? kRequeueHoldMark : kRequeueMark); !s) return s.failure();
    if (hold)
      if (auto s = store_.set_held(id, true, held_detail(action), now); !s) return s.failure();
    u.requeueing = true;
    u.requeue_hold = hold;
    u.cancel_requested = true;  // step() sends the scheduler's cancel
    u.cancel_sent = 0;
  }
  if (!acting.empty()) changed_ = true;
  return acting;
}

void IndirectBackend::requeued(Member& m, const NativeStatus& s, double now) {
  Unit& u = units_.at(m.head);
  const std::string ended = native_base_of(m.native_id);
  if (auto st = store_.end_try(m.id, ended); !st) log(dialect_.name(), "job " + std::to_string(m.id) + ": " + st.error());
  u.ended_try = ended;
  u.requeueing = false;
  u.cancel_requested = false;
  u.cancel_sent = 0;
  u.user_held = u.requeue_hold;  // kept by yard until released
  Transition t;
  t.native_state = s.raw_state;
  t.reason = "requeued: " + std::string(dialect_.name()) + " job " + m.native_id + " ended (" +
             (s.raw_state.empty() ? "gone" : s.raw_state) + "); " +
             (u.requeue_hold ? "held until yard release" : "submitted again");
  submit_again(m, t, now, now);
}

}  // namespace yard
