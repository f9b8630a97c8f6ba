// LocalBackend, part: a job tried again for its retry policy (core/retry_policy.h). The
// cause is the job's own end as the host recorded it (out of memory from its cgroup, its
// walltime, a lost host), and an exit code only when the policy lists it. The job keeps
// its id, its place in its flow and its dependents: it goes back to PENDING with the
// memory and time of its next try, after its backoff.
#include "local/local_backend.h"

#include <iostream>

#include "core/duration.h"
#include "core/size.h"

namespace yard {

bool LocalBackend::try_again(std::int64_t id, const Running& run, bool release, JobState to, const Transition& t) {
  if (!is_terminal(to) || to == JobState::Completed || to == JobState::Cancelled) return false;
  auto spec = spec_for(run.spec_id);
  if (!spec || !*spec || !(*spec)->retry) return false;
  const RetryPolicy& policy = *(*spec)->retry;
  if (!policy.covers(to, t.exit_code)) return false;
  auto rec = store_.job(id);
  if (!rec || !*rec) return false;
  const JobRecord& job = **rec;
  if (job.retries >= policy.times) return false;
  const int retry = job.retries + 1;
  // Grown from the first try's request, never past what this machine has.
  const std::uint64_t first_mem = (*spec)->total_mem_bytes();
  std::uint64_t mem = policy.mem_for(first_mem, retry);
  if (machine_.mem_bytes > 0) mem = std::min<std::uint64_t>(mem, machine_.mem_bytes);
  const std::int64_t time = policy.time_for((*spec)->res.walltime_s, retry);
  Transition back;
  back.reason = "retry " + std::to_string(retry) + "/" + std::to_string(policy.times) + " after " +
                std::string(to_string(to)) + (t.exit_code ? " (exit " + std::to_string(*t.exit_code) + ")" : "");
  if (mem != static_cast<std::uint64_t>(job.mem_bytes))
    back.reason += ", mem " + format_bytes(static_cast<std::uint64_t>(job.mem_bytes)) + " -> " + format_bytes(mem);
  if (time != job.walltime_s) back.reason += ", time " + format_walltime(job.walltime_s) + " -> " + format_walltime(time);
  if (policy.backoff_s > 0) back.reason += ", in " + format_walltime(static_cast<std::int64_t>(policy.backoff_s));
  const double end = t.end_time.value_or(clock_.wall());
  const UsageCharge used = charge(run.view, end);
  {
    auto tx = store_.transaction();
    auto s = store_.transition(id, JobState::Pending, back, clock_.wall());
    // The backoff's end is stored: a daemon restarted meanwhile waits for it too.
    const double not_before = policy.backoff_s > 0 ? clock_.wall() + policy.backoff_s : 0;
    if (s) s = store_.count_retry(id, static_cast<std::int64_t>(mem), time, {not_before, {}, {}});
    if (s) s = store_.add_usage(used);
    if (s) s = tx.commit();
    if (!s) {
      std::cerr << "yard daemon: job " << id << ": cannot try it again: " << s.error() << std::endl;
      return false;
    }
  }
  if (release) pool_.release(run.alloc);
  if (run.array_job_id) queue_.element_ended(run.array_job_id);
  auto again = store_.job(id);
  if (!again || !*again) return true;
  pending_[id] = queued(**again);
  if (policy.backoff_s > 0) retry_at_[id] = clock_.wall() + policy.backoff_s;
  else queue_.push(pending_[id]);
  return true;
}

void LocalBackend::queue_due_retries(double now) {
  for (auto it = retry_at_.begin(); it != retry_at_.end();) {
    if (it->second > now) {
      ++it;
      continue;
    }
    if (auto p = pending_.find(it->first); p != pending_.end()) queue_.push(p->second);  // unless cancelled meanwhile
    it = retry_at_.erase(it);
  }
}

}  // namespace yard
