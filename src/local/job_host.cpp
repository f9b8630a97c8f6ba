#include "local/job_host.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "local/cgroup.h"
#include "local/host_protocol.h"
#include "local/job_start.h"
#include "local/run_record.h"

namespace yard {
namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double mono_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The resident memory of every process group, summed over its processes, from one scan
// of /proc.
std::unordered_map<pid_t, std::uint64_t> rss_by_group() {
  std::unordered_map<pid_t, std::uint64_t> total;
  DIR* d = ::opendir("/proc");
  if (!d) return total;
  static const long page = ::sysconf(_SC_PAGESIZE);
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::ifstream f(std::string("/proc/") + e->d_name + "/stat");
    std::string line;
    if (!std::getline(f, line)) continue;
    auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream in(line.substr(close + 2));
    std::string field;
    long long pg = 0, rss = 0;
    // Fields after "(comm)": state(3) ppid(4) pgrp(5) ... rss(24).
    for (int i = 3; i <= 24 && in >> field; ++i) {
      if (i == 5) pg = std::atoll(field.c_str());
      if (i == 24) rss = std::atoll(field.c_str());
    }
    if (rss > 0) total[static_cast<pid_t>(pg)] += static_cast<std::uint64_t>(rss) * static_cast<std::uint64_t>(page);
  }
  ::closedir(d);
  return total;
}

struct Supervised {
  std::int64_t id = 0;
  pid_t pid = 0;
  int record = -1;
  double walltime_deadline = 0;  // monotonic; 0 = none
  double kill_deadline = 0;      // SIGKILL after the grace period; 0 = not stopping
  int kill_grace_s = 10;
  std::uint64_t mem_limit = 0;
  std::optional<MemoryCgroup> cgroup;
  bool poll_memory = false;
  bool cancelled = false, timed_out = false, requeued = false, mem_killed = false;
  std::string launch_error;
  std::string started;  // "job_pid=...\nstart_time=...\n", as in its record
};

class Host {
 public:
  explicit Host(int sock) : sock_(sock) {}
  int run();

 private:
  void read_requests();  // every launch waiting on the socket
  void launch(const std::string& request, int record_fd);
  // False if it could not be started (its failure is recorded and reported).
  bool start(std::int64_t id, const LaunchPlan& p, int record_fd);
  // A hand-off that will not start: its record says why, the daemon is told.
  void drop_handed(std::int64_t id, JobState state, const std::string& reason);
  void end_unstarted(std::int64_t id, int record_fd, JobState state, const std::string& reason);
  void fail_launch(std::int64_t id, int record_fd, const std::string& why);
  void reap();
  void finish(Supervised& j, int status, const rusage& ru, double end_time);
  void stop(Supervised& j);
  void on_signal(const signalfd_siginfo& si);
  void check_deadlines();
  int poll_timeout_ms() const;
  void tell_daemon(std::string message);
  void flush_to_daemon();

  int sock_;
  int sigfd_ = -1;
  sigset_t mask_{};
  std::unordered_map<pid_t, Supervised> jobs_;
  std::unordered_map<std::int64_t, pid_t> by_id_;
  // Hand-offs: jobs to start the moment their predecessor ends, by predecessor id.
  struct Handed {
    std::int64_t id = 0;
    LaunchPlan plan;
    int record = -1;
  };
  std::unordered_map<std::int64_t, Handed> handed_;
  std::unordered_map<std::int64_t, std::int64_t> handed_behind_;  // job id -> predecessor id
  // Hand-offs dropped before they started, and the job each waited for: one sent behind
  // them before the daemon heard of it waits for that job instead. The latest few.
  std::unordered_map<std::int64_t, std::int64_t> dropped_;
  std::deque<std::int64_t> dropped_order_;
  std::deque<std::string> outbox_;        // to the daemon, when its socket is full
  std::vector<MemoryCgroup> to_remove_;  // groups not yet empty enough to remove
  std::string self_ = "supervisor_pid=" + std::to_string(::getpid()) + "\n";
  rlimit job_nofile_{};  // the open-files limit jobs get: the one the host started with
  bool raised_nofile_ = false;
  double next_rss_poll_ = 0;  // monotonic; the memory fallback's next scan
};

void Host::tell_daemon(std::string message) {
  if (sock_ < 0) return;
  outbox_.push_back(std::move(message));
  flush_to_daemon();
}

void Host::flush_to_daemon() {
  while (sock_ >= 0 && !outbox_.empty()) {
    if (send_with_fd(sock_, outbox_.front(), -1, true)) {
      outbox_.pop_front();
    } else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS) {
      return;  // POLLOUT will tell when there is room
    } else {
      outbox_.clear();  // the daemon is gone; the records keep the outcomes
      return;
    }
  }
}

void Host::fail_launch(std::int64_t id, int record_fd, const std::string& why) {
  RunOutcome o;
  o.state = JobState::Failed;
  o.reason = why;
  o.end_time = now_s();
  const std::string text = self_ + format_outcome(o);  // (self_ again is harmless)
  if (record_fd >= 0) {
    append_record(record_fd, text);
    ::close(record_fd);
  }
  if (id > 0) tell_daemon(encode_ended(id, text));
  std::cerr << "yard job host: job " << id << ": " << why << std::endl;
}

void Host::launch(const std::string& request, int record_fd) {
  auto d = decode_launch(request);
  if (!d.plan) return fail_launch(d.job_id, record_fd, d.plan.error());
  if (record_fd < 0) return fail_launch(d.job_id, record_fd, "no run record was passed");
  dropped_.erase(d.job_id);  // sent again after the daemon heard of its drop: that is past
  std::int64_t after = d.after;
  for (auto x = dropped_.find(after); x != dropped_.end() && !by_id_.count(after); x = dropped_.find(after))
    after = x->second;
  if (after > 0 && (by_id_.count(after) || handed_behind_.count(after))) {
    if (handed_.count(after)) {
      // Someone waits for it already: the CPUs are not this job's to take.
      return end_unstarted(d.job_id, record_fd, JobState::Pending, "handed back: another job waits for the same CPUs");
    }
    // Behind a running job, or behind a hand-off itself (a chain: each starts as the
    // one before it ends).
    handed_behind_[d.job_id] = after;
    handed_[after] = Handed{d.job_id, std::move(*d.plan), record_fd};
    return;
  }
  start(d.job_id, *d.plan, record_fd);  // no predecessor, or it has ended already
}

void Host::drop_handed(std::int64_t id, JobState state, const std::string& reason) {
  auto b = handed_behind_.find(id);
  if (b == handed_behind_.end()) return;
  const std::int64_t pred = b->second;
  handed_behind_.erase(b);
  auto h = handed_.find(pred);
  if (h == handed_.end()) return;
  Handed gone = std::move(h->second);
  handed_.erase(h);
  // Whoever waited behind it waits for its predecessor now (as the daemon sees it).
  if (auto s = handed_.find(id); s != handed_.end()) {
    Handed next = std::move(s->second);
    handed_.erase(s);
    handed_behind_[next.id] = pred;
    handed_[pred] = std::move(next);
  }
  dropped_[id] = pred;
  dropped_order_.push_back(id);
  if (dropped_order_.size() > 4096) {
    dropped_.erase(dropped_order_.front());
    dropped_order_.pop_front();
  }
  end_unstarted(id, gone.record, state, reason);
}

void Host::end_unstarted(std::int64_t id, int record_fd, JobState state, const std::string& reason) {
  RunOutcome o;
  o.state = state;
  o.reason = reason;
  o.end_time = now_s();
  const std::string text = format_outcome(o);  // no host pid, no job pid: it never started
  append_record(record_fd, text);
  ::close(record_fd);
  tell_daemon(encode_ended(id, text));
}

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
  // Written before the job exists: a record with a host but no job pid may have started it
  // (LOST if the host dies now), one without a host never did (requeued).
  append_record(record_fd, self_);
  StartedJob s = start_job(p, procs, raised_nofile_ ? &job_nofile_ : nullptr);
  if (procs >= 0) ::close(procs);
  if (s.pid < 0) {
    if (j.cgroup) j.cgroup->remove();
    fail_launch(id, record_fd, s.error);
    return false;
  }
  j.pid = s.pid;
  j.launch_error = std::move(s.error);
  if (p.walltime_s > 0) j.walltime_deadline = mono_s() + static_cast<double>(p.walltime_s);
  char started[64];
  std::snprintf(started, sizeof started, "start_time=%.6f\n", now_s());
  j.started = "job_pid=" + std::to_string(s.pid) + "\n" + started;
  append_record(record_fd, j.started);
  by_id_[j.id] = j.pid;
  jobs_.emplace(j.pid, std::move(j));
  return true;
}

void Host::stop(Supervised& j) {
  ::killpg(j.pid, SIGTERM);
  ::killpg(j.pid, SIGCONT);
  if (j.kill_deadline == 0) j.kill_deadline = mono_s() + j.kill_grace_s;
}

void Host::on_signal(const signalfd_siginfo& si) {
  // Ends are reaped after every signal read with them: a cancel that came with its
  // predecessor's end then stops a hand-off before it would have started.
  if (static_cast<int>(si.ssi_signo) == SIGCHLD) return;
  const auto id = static_cast<std::int64_t>(si.ssi_ptr);
  const int sig = static_cast<int>(si.ssi_signo);
  if (handed_behind_.count(id)) {  // handed off, not started yet: it never will be
    if (sig == cancel_signal()) drop_handed(id, JobState::Cancelled, "cancelled before it started");
    else drop_handed(id, JobState::Pending, "handed back before it started");
    return;
  }
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return;  // ended meanwhile (or a revoke that came too late)
  Supervised& j = jobs_.at(it->second);
  if (j.cancelled || j.timed_out) return;
  if (static_cast<int>(si.ssi_signo) == cancel_signal()) {
    j.cancelled = true;  // also after a preemption began: a cancel wins
    stop(j);
  } else if (static_cast<int>(si.ssi_signo) == preempt_signal() && !j.requeued) {
    j.requeued = true;
    stop(j);
  }
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
      ::killpg(pid, SIGKILL);  // nothing of the predecessor shares its CPUs
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
  ::killpg(j.pid, SIGKILL);  // nothing of the job outlives it
  bool oom = j.mem_killed;
  std::uint64_t peak = 0;
  if (j.cgroup) {
    j.cgroup->kill_all();
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
  } else if (j.cancelled) {
    o.state = JobState::Cancelled;
    o.reason = "cancelled";
  } else if (j.requeued) {
    o.state = JobState::Pending;
    o.reason = "preempted";
  } else if (j.timed_out) {
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

void Host::check_deadlines() {
  const double now = mono_s();
  // The memory fallback: one scan of /proc every 200 ms for all the jobs that need it.
  std::unordered_map<pid_t, std::uint64_t> rss;
  bool scanned = false;
  if (now >= next_rss_poll_)
    for (auto& [pid, j] : jobs_)
      if (j.poll_memory && !j.mem_killed) {
        rss = rss_by_group();
        scanned = true;
        next_rss_poll_ = now + 0.2;
        break;
      }
  for (auto& [pid, j] : jobs_) {
    if (j.kill_deadline > 0 && now >= j.kill_deadline) {
      ::killpg(j.pid, SIGKILL);
      if (j.cgroup) j.cgroup->kill_all();
      j.kill_deadline = now + 3600;  // sent; keep waiting for the exit
    }
    if (j.walltime_deadline > 0 && !j.timed_out && !j.cancelled && now >= j.walltime_deadline) {
      j.timed_out = true;
      stop(j);
    }
    if (scanned && j.poll_memory && !j.mem_killed && rss[j.pid] > j.mem_limit) {
      j.mem_killed = true;
      ::killpg(j.pid, SIGKILL);
    }
  }
  to_remove_.erase(std::remove_if(to_remove_.begin(), to_remove_.end(),
                                  [](const MemoryCgroup& c) {
                                    c.kill_all();
                                    return c.try_remove();
                                  }),
                   to_remove_.end());
}

int Host::poll_timeout_ms() const {
  const double now = mono_s();
  double wake = -1;
  auto at = [&](double t) { wake = wake < 0 ? t : std::min(wake, t); };
  for (auto& [pid, j] : jobs_) {
    if (j.kill_deadline > 0) at(j.kill_deadline - now);
    if (j.walltime_deadline > 0 && !j.timed_out) at(j.walltime_deadline - now);
    if (j.poll_memory && !j.mem_killed) at(std::max(0.0, next_rss_poll_ - now));
  }
  if (!to_remove_.empty()) at(0.005);
  if (wake < 0) return -1;
  return static_cast<int>(std::clamp(wake * 1000 + 1, 1.0, 3.6e6));
}

void Host::read_requests() {
  // Everything waiting, then back to reaping: a burst of launches is one wake-up.
  std::string request;
  while (sock_ >= 0) {
    int record_fd = -1;
    errno = 0;
    if (!recv_with_fd(sock_, request, record_fd)) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      ::close(sock_);  // the daemon is gone: supervise what runs, then leave
      sock_ = -1;
      outbox_.clear();
      return;
    }
    launch(request, record_fd);
  }
}

int Host::run() {
  // One record open per running job: as many as the hard limit allows, the jobs keeping
  // the usual limit.
  if (::getrlimit(RLIMIT_NOFILE, &job_nofile_) == 0 && job_nofile_.rlim_cur < job_nofile_.rlim_max) {
    rlimit raised = job_nofile_;
    raised.rlim_cur = raised.rlim_max;
    raised_nofile_ = ::setrlimit(RLIMIT_NOFILE, &raised) == 0;
  }
  mask_ = host_signals();
  ::sigprocmask(SIG_SETMASK, &mask_, nullptr);
  sigfd_ = ::signalfd(-1, &mask_, SFD_CLOEXEC | SFD_NONBLOCK);
  // The daemon decides when jobs end; a terminal's or a careless killall's signals do not.
  for (int s : {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2}) ::signal(s, SIG_IGN);
  if (sigfd_ < 0) {
    std::cerr << "yard job host: no signalfd: " << std::strerror(errno) << std::endl;
    return 1;
  }
  while (sock_ >= 0 || !jobs_.empty() || !handed_.empty()) {
    pollfd fds[2] = {{sigfd_, POLLIN, 0}, {sock_, static_cast<short>(POLLIN | (outbox_.empty() ? 0 : POLLOUT)), 0}};
    if (::poll(fds, sock_ >= 0 ? 2 : 1, poll_timeout_ms()) < 0 && errno != EINTR) return 1;
    if (fds[0].revents) {
      std::vector<signalfd_siginfo> got;
      signalfd_siginfo si;
      while (::read(sigfd_, &si, sizeof si) == sizeof si) got.push_back(si);
      // The daemon signals about a job only after sending it: the launches waiting now
      // are taken first, so that a cancel or revoke finds its job, however fast it came.
      read_requests();
      for (auto& one : got) on_signal(one);
      reap();  // SIGCHLDs coalesce: reap whatever has ended
    }
    if (sock_ >= 0 && (fds[1].revents & POLLOUT)) flush_to_daemon();
    if (sock_ >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) read_requests();
    check_deadlines();
  }
  return 0;
}

}  // namespace

int run_job_host(int sock) {
  ::prctl(PR_SET_NAME, "yard-job-host");  // not "exe", from /proc/self/exe, in ps and top
  ::setsid();  // out of the daemon's session: a terminal's signals never reach the jobs
  if (sock != 3) {
    ::dup2(sock, 3);
    ::close(sock);
  }
  ::close_range(4, ~0U, 0);  // nothing of the daemon's but the socket and stdio
  int fl = ::fcntl(3, F_GETFL);
  ::fcntl(3, F_SETFL, fl | O_NONBLOCK);
  ::fcntl(3, F_SETFD, FD_CLOEXEC);
  int devnull = ::open("/dev/null", O_RDONLY);
  if (devnull >= 0) {
    ::dup2(devnull, 0);
    if (devnull != 0) ::close(devnull);
  }
  return Host(3).run();
}

}  // namespace yard
