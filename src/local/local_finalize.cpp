// LocalBackend, part: a job's end (reported by the host, seen on an adopted job's record,
// or settled when the host died), recorded with its usage, and what follows from it
// (the hand-off behind it, its array's throttle, its dependents).
#include "local/local_backend.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "local/run_record.h"
#include "store/sqlite.h"

namespace yard {
namespace {

void log_error(const std::string& what) { std::cerr << "yard daemon: " << what << std::endl; }

}  // namespace

void LocalBackend::set_state(std::int64_t id, JobState to, const Transition& t, const UsageCharge* charge) {
  auto tx = store_.transaction();
  auto s = store_.transition(id, to, t, clock_.wall());
  if (s && charge) s = store_.add_usage(*charge);
  if (s) s = tx.commit();
  if (!s) log_error("job " + std::to_string(id) + ": " + s.error());
}

UsageCharge LocalBackend::charge(const RunningJobView& v, double end) {
  const double seconds = v.start_time > 0 ? std::max(0.0, end - v.start_time) : 0.0;
  UsageCharge c{v.id, v.account, end, seconds * v.cpus};
  scheduler_.accounts().charge(c.account, c.core_seconds, static_cast<sched::Time>(end));
  return c;
}

std::vector<int> LocalBackend::watched_fds() const {
  if (by_watch_.empty()) return {};
  return {inotify_fd_};
}

bool LocalBackend::job_ended(const Ended& report) {
  auto it = running_.find(report.job_id);
  if (it == running_.end() || it->second.adopted) return false;
  finalize(report.job_id, report.record);
  return true;
}

void LocalBackend::host_died() {
  std::vector<std::int64_t> ids;
  for (auto& [id, r] : running_)
    if (!r.adopted) ids.push_back(id);
  for (auto id : ids) finalize_from_file(id);
}

void LocalBackend::fd_ready(int fd) {
  if (fd != inotify_fd_ || fd < 0) return;
  alignas(inotify_event) char buf[4096];
  std::vector<std::int64_t> closed;
  ssize_t n;
  while ((n = ::read(inotify_fd_, buf, sizeof buf)) > 0) {
    for (char* p = buf; p < buf + n;) {
      auto* e = reinterpret_cast<inotify_event*>(p);
      if (auto w = by_watch_.find(e->wd); w != by_watch_.end() && (e->mask & IN_CLOSE_WRITE))
        closed.push_back(w->second);
      p += sizeof(inotify_event) + e->len;
    }
  }
  for (auto id : closed) {
    auto it = running_.find(id);
    if (it == running_.end()) continue;
    // The host closes a job's record once, after writing its outcome (or dies, closing all).
    int rfd = ::open(records_.path(it->second.slot).c_str(), O_RDONLY | O_CLOEXEC);
    const bool locked = rfd >= 0 && ::flock(rfd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    if (rfd >= 0) ::close(rfd);
    if (!locked) finalize_from_file(id);
  }
}

void LocalBackend::finalize_from_file(std::int64_t id) {
  auto it = running_.find(id);
  if (it == running_.end()) return;
  finalize(id, parse_run_record(read_record_file(records_.path(it->second.slot))));
}

void LocalBackend::finalize(std::int64_t id, const RunRecord& rec) {
  auto it = running_.find(id);
  if (it == running_.end()) return;
  Running run = std::move(it->second);
  running_.erase(it);
  // Asked to requeue it (yard requeue): forgotten however it ended (it may have ended first).
  const bool user_requeue = user_requeues_.erase(id) != 0;
  if (run.host_pidfd >= 0) ::close(run.host_pidfd);
  if (run.watch >= 0) {
    ::inotify_rm_watch(inotify_fd_, run.watch);
    by_watch_.erase(run.watch);
  }
  records_.release(run.slot);
  // Hand-offs: a successor that was waiting for this job's CPUs has them now (the host
  // started it as this one ended), and the one behind it waits for a running job from
  // now on. A hand-off that ends without having had the CPUs (handed back, cancelled,
  // failed to start) leaves them with its predecessor, and whoever waited behind it
  // waits for that predecessor instead, as in the host.
  bool release = run.owns_alloc;
  auto next = running_.find(run.successor);
  if (next != running_.end() && next->second.predecessor != id) next = running_.end();
  if (run.owns_alloc) {
    if (next != running_.end()) {
      next->second.predecessor = 0;
      next->second.owns_alloc = true;
      release = false;
      if (auto after = running_.find(next->second.successor);
          after != running_.end() && after->second.predecessor == next->first)
        after->second.handed_at = clock_.wall();
    }
  } else {
    auto p = running_.find(run.predecessor);
    if (p != running_.end() && p->second.successor == id) p->second.successor = next != running_.end() ? next->first : 0;
    if (next != running_.end()) {
      next->second.predecessor = p != running_.end() ? p->first : 0;
      next->second.handed_at = clock_.wall();
    }
  }
  if (rec.start_time > 0) run.view.start_time = rec.start_time;  // the host's, not the plan's
  if (run.kind && rec.job_pid > 0 && rec.outcome && rec.outcome->end_time > 0) {
    if (kind_run_s_.size() > 1024) kind_run_s_.clear();  // a hint, not a record
    kind_run_s_[run.kind] = std::max(0.0, rec.outcome->end_time - run.view.start_time);
  }
  const bool ran = rec.job_pid > 0;
  Transition t;
  if (ran && rec.start_time > 0) t.start_time = rec.start_time;
  JobState to;
  const bool never_started = !rec.outcome && rec.supervisor_pid == 0;
  // A preempted job that asked not to run again (--no-requeue) ends there, as Slurm
  // ends a job that cannot be requeued when a preemption requeues the others.
  const bool preempted = ran && rec.outcome && rec.outcome->state == JobState::Pending;
  if (preempted && !requeue_allowed(run.spec_id)) {
    t.reason = "preempted; not submitted again (--no-requeue)";
    t.end_time = rec.outcome->end_time > 0 ? rec.outcome->end_time : clock_.wall();
    t.exit_code = rec.outcome->exit_code;
    t.signal = rec.outcome->signal;
    t.cpu_seconds = rec.outcome->cpu_seconds;
    t.max_rss_bytes = rec.outcome->max_rss_bytes;
    const UsageCharge used = charge(run.view, *t.end_time);
    set_state(id, JobState::Cancelled, t, &used);
    if (release) pool_.release(run.alloc);
    if (run.array_job_id) queue_.element_ended(run.array_job_id);
    mail_about(id, run.spec_id, JobState::Cancelled, *t.end_time - run.view.start_time, *t.exit_code);
    resolve_dependents(id, JobState::Cancelled);
    return;
  }
  if (never_started || (rec.outcome && rec.outcome->state == JobState::Pending)) {
    // Preempted: charged what it ran, and back in the queue with its id and submit time.
    // Never started (its host ended before taking it, or a hand-off handed back): back in
    // the queue as it was.
    if (never_started || !ran) {
      t.reason = never_started ? "requeued: the job host ended before starting it"
                               : "requeued: " + rec.outcome->reason;
      set_state(id, JobState::Pending, t);
    } else {
      t.reason = user_requeue ? "requeued (yard requeue)" : "preempted: requeued";
      t.exit_code = rec.outcome->exit_code;
      t.signal = rec.outcome->signal;
      const double end = rec.outcome->end_time > 0 ? rec.outcome->end_time : clock_.wall();
      const UsageCharge used = charge(run.view, end);
      set_state(id, JobState::Pending, t, &used);
      mail_about(id, run.spec_id, JobState::Pending, end - run.view.start_time);
    }
    if (release) pool_.release(run.alloc);
    if (run.array_job_id) queue_.element_ended(run.array_job_id);
    auto r = store_.job(id);
    if (r && r->has_value() && (*r)->state == JobState::Pending) {
      // Held when requeued (yard requeue --hold), also by a daemon started since: it waits aside.
      if ((*r)->held) queue_.hold(id);
      pending_[id] = queued(**r);
      queue_.push(pending_[id]);
    }
    return;
  }
  if (rec.outcome) {
    const RunOutcome& o = *rec.outcome;
    to = o.state;
    t.reason = o.reason;
    t.end_time = o.end_time;
    t.exit_code = o.exit_code;
    t.signal = o.signal;
    t.cpu_seconds = o.cpu_seconds;
    t.max_rss_bytes = o.max_rss_bytes;
  } else {
    // Its host died without a word: whatever is left of the job goes too.
    if (rec.job_pid > 0) ::killpg(rec.job_pid, SIGKILL);
    to = JobState::Lost;
    t.reason = "the job host ended without recording the job's outcome";
    t.end_time = clock_.wall();
  }
  if (ran && rec.outcome && try_again(id, run, release, to, t)) return;
  const UsageCharge used = charge(run.view, t.end_time.value_or(clock_.wall()));
  t.never_started = rec.outcome && !ran;  // a hand-off cancelled before it started: no start, no usage
  set_state(id, to, t, ran ? &used : nullptr);
  if (release) pool_.release(run.alloc);
  if (run.array_job_id) queue_.element_ended(run.array_job_id);
  mail_about(id, run.spec_id, to, ran ? t.end_time.value_or(clock_.wall()) - run.view.start_time : 0,
             t.exit_code.value_or(0));
  resolve_dependents(id, to);
}

bool LocalBackend::requeue_allowed(std::int64_t spec_id) {
  auto spec = spec_for(spec_id);
  return !spec || !*spec || (*spec)->requeue.value_or(true);
}

}  // namespace yard
