// Starting, stopping and ending the jobs the host supervises.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "local/host.h"
#include "local/host_protocol.h"
#include "local/job_start.h"
#include "local/run_record.h"

namespace yard::job_host {

bool Host::start(std::int64_t id, const LaunchPlan& p, int record_fd) {
  Supervised j;
  j.id = id;
  j.record = record_fd;
  j.kill_grace_s = p.kill_grace_s;
  j.mem_limit = p.mem_limit_bytes;
  int procs = -1;
  if (p.mem_limit_bytes > 0) {
    if (auto c = p.memory_poll ? Result<MemoryCgroup>(err("polling asked for")) : MemoryCgroup::create(p.uid, p.mem_limit_bytes)) {
      j.cgroup = std::move(*c);
      procs = ::open((j.cgroup->path() + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    }
    j.poll_memory = !j.cgroup || procs < 0;
  }
  // A v2 memory group tracks the job itself: a process is in one group of a hierarchy.
  if (!j.cgroup || !j.cgroup->v2()) j.group = tracker_.acquire();
  // Written before the job exists: a record with a host but no job pid may have started it
  // (LOST if the host dies now), one without a host never did (requeued).
  append_record(record_fd, self_);
  StartedJob s = start_job(p, JobGroups{procs, j.group.procs_fd}, raised_nofile_ ? &job_nofile_ : nullptr);
  if (procs >= 0) ::close(procs);
  if (s.pid < 0) {
    if (j.cgroup) j.cgroup->remove();
    tracker_.end(std::move(j.group), id);
    fail_launch(id, record_fd, s.error);
    return false;
  }
  j.pid = s.pid;
  j.launch_error = std::move(s.error);
  if (p.walltime_s > 0) j.walltime_deadline = mono_s() + static_cast<double>(p.walltime_s);
  if (p.walltime_s > 0 && p.warn_signal > 0) {  // as Slurm: only a job with a time limit is warned
    j.warn_deadline = j.walltime_deadline - std::min(static_cast<double>(p.warn_before_s), static_cast<double>(p.walltime_s));
    j.warn_signal = p.warn_signal;
    j.warn_batch_only = p.warn_batch_only;
  }
  char started[64];
  std::snprintf(started, sizeof started, "start_time=%.6f\n", now_s());
  j.started = "job_pid=" + std::to_string(s.pid) + "\n" + started;
  append_record(record_fd, j.started);
  by_id_[j.id] = j.pid;
  jobs_.emplace(j.pid, std::move(j));
  return true;
}

void Host::stop(Supervised& j) {
  signal_tree(j, SIGTERM);
  signal_tree(j, SIGCONT);
  if (j.kill_deadline == 0) j.kill_deadline = mono_s() + j.kill_grace_s;
}

void Host::signal_tree(const Supervised& j, int sig) const {
  ::killpg(j.pid, sig);
  if (!j.group.path.empty() || !j.cgroup || !j.cgroup->v2()) tracker_.signal(j.group, j.pid, j.id, sig);
  else tracker_.signal(TrackedGroup{j.cgroup->path(), -1}, j.pid, j.id, sig);  // its memory group tracks it
}

void Host::end_tree(Supervised& j) {
  if (j.tree_ended) return;
  j.tree_ended = true;
  ::killpg(j.pid, SIGKILL);
  if (j.cgroup) j.cgroup->kill_all();
  tracker_.end(std::move(j.group), j.id);
}

void Host::reap() {
  for (;;) {
    int status = 0;
    rusage ru{};
    pid_t pid = ::wait4(-1, &status, WNOHANG, &ru);
    if (pid <= 0) return;
    const double end = now_s();
    auto it = jobs_.find(pid);
    if (it == jobs_.end()) continue;
    // Its successor first, on the CPUs it leaves (and starting after it ended): what the
    // hand-off is for. The daemon hears of the end after the successor started.
    // One that cannot start at all leaves the CPUs to the next of the chain.
    std::int64_t freed = it->second.id;
    for (auto h = handed_.find(freed); h != handed_.end(); h = handed_.find(freed)) {
      Handed next = std::move(h->second);
      handed_.erase(h);
      handed_behind_.erase(next.id);
      end_tree(it->second);  // nothing of the predecessor shares its CPUs
      if (start(next.id, next.plan, next.record)) break;
      freed = next.id;
    }
    it = jobs_.find(pid);  // start() may have rehashed the table
    finish(it->second, status, ru, end);
    by_id_.erase(it->second.id);
    jobs_.erase(it);
  }
}

void Host::finish(Supervised& j, int status, const rusage& ru, double end_time) {
  end_tree(j);  // nothing of the job outlives it
  bool oom = j.mem_killed;
  std::uint64_t peak = 0;
  if (j.cgroup) {
    oom = oom || j.cgroup->oom_killed();
    peak = j.cgroup->peak_bytes();
    if (!j.cgroup->try_remove()) to_remove_.push_back(*j.cgroup);
  }
  RunOutcome o;
  o.end_time = end_time;
  o.cpu_seconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                  static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  o.max_rss_bytes = std::max<std::int64_t>(static_cast<std::int64_t>(ru.ru_maxrss) * 1024,
                                           static_cast<std::int64_t>(peak));
  if (WIFEXITED(status)) {
    o.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    o.signal = WTERMSIG(status);
    o.exit_code = 128 + o.signal;
  }
  if (!j.launch_error.empty()) {
    o.state = JobState::Failed;
    o.reason = j.launch_error;
  } else if (j.stopping == Supervised::Stopping::Cancelled) {
    o.state = JobState::Cancelled;
    o.reason = "cancelled";
  } else if (j.stopping == Supervised::Stopping::Preempted) {
    o.state = JobState::Pending;
    o.reason = "preempted";
  } else if (j.stopping == Supervised::Stopping::TimedOut) {
    o.state = JobState::Timeout;
    o.reason = "walltime exceeded";
  } else if (oom) {
    o.state = JobState::OutOfMemory;
    o.reason = "memory limit exceeded";
  } else if (WIFEXITED(status) && o.exit_code == 0) {
    o.state = JobState::Completed;
  } else {
    o.state = JobState::Failed;
    o.reason = WIFSIGNALED(status) ? std::string("killed by signal ") + std::to_string(o.signal)
                                   : "exit code " + std::to_string(o.exit_code);
  }
  const std::string outcome = format_outcome(o);
  append_record(j.record, outcome);
  ::close(j.record);  // the lock goes: the record is final
  tell_daemon(encode_ended(j.id, j.started + outcome));
}

}  // namespace yard::job_host
