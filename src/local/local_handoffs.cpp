// LocalBackend's hand-offs: array elements given to the job host behind a running
// sibling, to start on its CPUs the moment it ends (docs/ARCHITECTURE.md, Hand-offs).
#include <algorithm>
#include <unordered_set>

#include "local/local_backend.h"

namespace yard {

void LocalBackend::plan_handoffs() {
  // Only where it cannot change what starts when: the plain policy (no tiers, so no
  // preemption; order is --priority, submit second, id), and a successor of the same
  // array (same spec, so the same resources) as the job whose CPUs it takes. The head
  // keeps its place: it starts when its predecessor ends, or goes back after
  // handoff_wait seconds (revoked) and competes again.
  if (handoff_wait_s_ <= 0 || !host_ || !scheduler_.plain()) return;
  // Predecessors: array elements running, or starting in this iteration, that nobody
  // waits for yet.
  struct Candidate {
    std::int64_t id, spec_id, array_job_id;
    Allocation alloc;
  };
  std::vector<Candidate> free;
  std::unordered_set<std::int64_t> awaited;
  for (auto& p : planned_)
    if (p.after) awaited.insert(p.after);
  for (auto& [id, r] : running_)
    if (r.owns_alloc && !r.adopted && r.successor == 0 && !r.requeueing && !r.long_running && r.array_job_id != 0 &&
        !awaited.count(id))
      free.push_back({id, r.spec_id, r.array_job_id, r.alloc});
  for (auto& p : planned_)
    if (p.after == 0 && p.array_job_id != 0 && !awaited.count(p.id)) free.push_back({p.id, p.spec_id, p.array_job_id, p.alloc});
  if (free.empty()) return;
  // The oldest first: the likeliest to end first.
  std::sort(free.begin(), free.end(), [](const Candidate& a, const Candidate& b) { return a.id < b.id; });
  const double now = wall_now();
  for (std::size_t taken = 0; taken < free.size();) {
    const auto& order = queue_.plain_order();
    if (order.empty()) return;
    const std::int64_t head = order.begin()->id;
    const QueuedJob& q = queue_.ready().at(head);
    if (pool_.free_cpus() >= q.cpus) return;  // it may start on its own: no hand-off
    std::size_t found = free.size();
    for (std::size_t i = taken; i < free.size() && found == free.size(); ++i)
      if (free[i].spec_id == q.spec_id && free[i].array_job_id == q.array_job_id) found = i;
    if (found == free.size()) return;  // the head is of another kind: it waits for CPUs like any job
    std::swap(free[found], free[taken]);
    const Candidate& pred = free[taken++];
    auto spec = spec_for(q.spec_id);
    if (!spec) return;
    const QueuedJob job = q;
    queue_.started(head);
    pending_.erase(head);
    Planned p = plan_for(job, pred.alloc, **spec, now);
    p.after = pred.id;
    planned_.push_back(std::move(p));
  }
}

void LocalBackend::tick(double now) {
  for (auto& [id, r] : running_)
    if (r.predecessor && !r.revoking && now - r.handed_at >= handoff_wait_s_) {
      r.revoking = signal_job(r, revoke_signal());  // the host hands it back, if not started
      if (auto p = running_.find(r.predecessor); p != running_.end()) p->second.long_running = true;
    }
}

double LocalBackend::next_wakeup_s(double now) const {
  double wake = 3600;
  for (auto& [id, r] : running_)
    if (r.predecessor && !r.revoking) wake = std::min(wake, std::max(0.0, r.handed_at + handoff_wait_s_ - now));
  return wake;
}

}  // namespace yard
