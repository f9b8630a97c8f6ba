// LocalBackend's hand-offs: queued jobs given to the job host behind a running job of
// their kind (an array's sibling, or a job of the same shape), to start on its CPUs the
// moment it ends (docs/ARCHITECTURE.md, Hand-offs).
#include <algorithm>
#include <unordered_set>

#include "local/local_backend.h"

namespace yard {

namespace {
// The longest chain of hand-offs behind one running job. Each link is a round trip to the
// daemon saved while the CPUs would otherwise wait; four cover the daemon's busiest
// moments at jobs of a millisecond.
constexpr int kMaxHandoffChain = 4;
}  // namespace

int LocalBackend::handoff_depth(const Running& r) const {
  int depth = 0;
  for (const Running* x = &r; !x->owns_alloc && x->predecessor && depth <= kMaxHandoffChain;) {
    ++depth;
    auto p = running_.find(x->predecessor);
    if (p == running_.end()) break;
    x = &p->second;
  }
  return depth;
}

std::int64_t LocalBackend::handoff_kind(const QueuedJob& q) {
  if (q.array_job_id) return q.array_job_id;
  auto [it, added] = shape_kinds_.try_emplace({q.cpus, q.mem_bytes, q.gpus, q.account}, 0);
  if (added) it->second = -static_cast<std::int64_t>(shape_kinds_.size());
  return it->second;
}

int LocalBackend::handoff_chain_limit(std::int64_t kind) const {
  // A chain behind a long job only waits to be revoked: deeper chains only for kinds whose
  // last job ended well within the wait that the whole chain may take. An array's
  // elements are alike: one hand-off before any ended. Jobs of one shape may be anything
  // (a day's run beside a flow's thousand steps): none until the last of them ended so.
  auto it = kind_run_s_.find(kind);
  const bool short_jobs = it != kind_run_s_.end() && it->second * kMaxHandoffChain * 4 < handoff_wait_s_;
  return short_jobs ? kMaxHandoffChain : kind > 0 ? 1 : 0;
}

void LocalBackend::plan_handoffs() {
  // Only where it cannot change what starts when: the plain policy (no tiers, so no
  // preemption; order is --priority, submit second, id), and a successor of the job's
  // kind (its array's sibling, or a job asking the same resources and account) as the job
  // whose CPUs it takes. The head keeps its place: it starts when its predecessor ends,
  // or goes back after handoff_wait seconds (revoked) and competes again.
  if (handoff_wait_s_ <= 0 || !host_ || !scheduler_.plain()) return;
  // Predecessors: jobs of a kind running, starting in this iteration, or handed off
  // themselves (up to the chain's limit), that nobody waits for yet.
  struct Candidate {
    std::int64_t id, spec_id, kind;
    Allocation alloc;
    int depth;
  };
  std::vector<Candidate> free;
  std::unordered_set<std::int64_t> awaited;
  for (auto& p : planned_)
    if (p.after) awaited.insert(p.after);
  const double now = clock_.wall();
  for (auto& [id, r] : running_) {
    if (r.adopted || r.successor != 0 || r.requeueing || r.long_running || r.revoking || r.cancel_sent ||
        r.kind == 0 || awaited.count(id))
      continue;
    // A job of a shape that has run as long as a hand-off may wait is not one of the
    // short ones its kind's hint speaks of.
    if (r.kind < 0 && now - r.view.start_time >= handoff_wait_s_) continue;
    const int depth = handoff_depth(r);
    if (depth < handoff_chain_limit(r.kind)) free.push_back({id, r.spec_id, r.kind, r.alloc, depth});
  }
  for (auto& p : planned_)
    if (p.kind != 0 && !awaited.count(p.id) && p.depth < handoff_chain_limit(p.kind))
      free.push_back({p.id, p.spec_id, p.kind, p.alloc, p.depth});
  for (std::size_t taken = 0; taken < free.size();) {
    const auto& order = queue_.plain_order();
    if (order.empty()) return;
    const std::int64_t head = order.begin()->id;
    const QueuedJob& q = queue_.ready().at(head);
    if (pool_.free_cpus() >= q.cpus) return;  // it may start on its own: no hand-off
    const std::int64_t kind = handoff_kind(q);
    // The shortest chain first, then the oldest job: the likeliest to free its CPUs first.
    std::size_t found = free.size();
    for (std::size_t i = taken; i < free.size(); ++i)
      if (free[i].kind == kind && (kind < 0 || free[i].spec_id == q.spec_id) &&
          (found == free.size() || std::pair(free[i].depth, free[i].id) < std::pair(free[found].depth, free[found].id)))
        found = i;
    if (found == free.size()) return;  // the head is of another kind: it waits for CPUs like any job
    std::swap(free[found], free[taken]);
    const Candidate pred = free[taken++];
    auto spec = spec_for(q.spec_id);
    if (!spec) return;
    const QueuedJob job = q;
    queue_.started(head);
    pending_.erase(head);
    Planned p = plan_for(job, pred.alloc, **spec, now);
    p.after = pred.id;
    p.depth = pred.depth + 1;
    if (p.depth < handoff_chain_limit(p.kind)) free.push_back({p.id, p.spec_id, p.kind, p.alloc, p.depth});
    planned_.push_back(std::move(p));
  }
}

void LocalBackend::revoke_chain(Running& r) {
  // The host hands each back if not started; one behind a revoked job waits for that
  // job's predecessor meanwhile, so all are revoked together.
  for (Running* x = &r; x && !x->revoking;) {
    x->revoking = signal_job(*x, revoke_signal());
    auto s = running_.find(x->successor);
    x = s != running_.end() && s->second.predecessor == x->id ? &s->second : nullptr;
  }
}

bool LocalBackend::waits_for_running(const Running& r) const {
  auto p = running_.find(r.predecessor);
  return p == running_.end() || p->second.owns_alloc;
}

bool LocalBackend::cpus_covered() const {
  for (auto& [id, r] : running_)
    if (r.owns_alloc && r.successor == 0) return false;
  return true;
}

void LocalBackend::tick(double now) {
  mailer_.reap();
  queue_due_retries(now);
  resolve_foreign_parents();
  if (launch_retry_at_ > 0 && now >= launch_retry_at_) launch_retry_at_ = 0;
  for (auto& [id, r] : running_)
    if (r.predecessor && !r.revoking && now - r.handed_at >= handoff_wait_s_ && waits_for_running(r)) {
      revoke_chain(r);
      if (auto p = running_.find(r.predecessor); p != running_.end()) p->second.long_running = true;
    }
}

double LocalBackend::next_wakeup_s(double now) const {
  // Jobs requeued for want of disk space are tried again then (plan_starts runs on
  // every wake-up), so they start once there is room, whatever else happens.
  double wake = launch_retry_at_ > 0 ? std::max(0.0, launch_retry_at_ - now) : 3600;
  for (auto& [id, at] : retry_at_) wake = std::min(wake, std::max(0.0, at - now));
  // A job waiting on another backend's job: that backend's news wakes the daemon, but
  // may be committed after this backend's look in the same pass; look again soon.
  for (auto parent : watched_parents_)
    if (!pending_.count(parent) && !running_.count(parent)) {
      wake = std::min(wake, kForeignParentLookS);
      break;
    }
  for (auto& [id, r] : running_)
    if (r.predecessor && !r.revoking && waits_for_running(r))
      wake = std::min(wake, std::max(0.0, r.handed_at + handoff_wait_s_ - now));
  return wake;
}

}  // namespace yard
