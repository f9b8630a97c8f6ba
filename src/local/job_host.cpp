#include "local/job_host.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <unordered_map>

#include "local/host.h"
#include "local/host_protocol.h"
#include "local/proc_scan.h"

namespace yard {
namespace job_host {

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
  if (j.stopping == Supervised::Stopping::Cancelled || j.stopping == Supervised::Stopping::TimedOut) return;
  if (static_cast<int>(si.ssi_signo) == cancel_signal()) {
    j.stopping = Supervised::Stopping::Cancelled;  // also after a preemption began: a cancel wins
    stop(j);
  } else if (static_cast<int>(si.ssi_signo) == preempt_signal() && j.stopping == Supervised::Stopping::No) {
    j.stopping = Supervised::Stopping::Preempted;
    stop(j);
  }
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
      signal_tree(j, SIGKILL);
      if (j.cgroup) j.cgroup->kill_all();
      j.kill_deadline = now + 3600;  // sent; keep waiting for the exit
    }
    if (j.warn_deadline > 0 && j.stopping == Supervised::Stopping::No && now >= j.warn_deadline) {
      j.warn_deadline = 0;  // once
      if (j.warn_batch_only) ::kill(j.pid, j.warn_signal);
      else signal_tree(j, j.warn_signal);
    }
    if (j.walltime_deadline > 0 && j.stopping == Supervised::Stopping::No && now >= j.walltime_deadline) {
      j.stopping = Supervised::Stopping::TimedOut;
      stop(j);
    }
    if (scanned && j.poll_memory && !j.mem_killed && rss[j.pid] > j.mem_limit) {
      j.mem_killed = true;
      signal_tree(j, SIGKILL);
    }
  }
  to_remove_.erase(std::remove_if(to_remove_.begin(), to_remove_.end(),
                                  [](const MemoryCgroup& c) {
                                    c.kill_all();
                                    return c.try_remove();
                                  }),
                   to_remove_.end());
  tracker_.drain();
}

int Host::poll_timeout_ms() const {
  const double now = mono_s();
  double wake = -1;
  auto at = [&](double t) { wake = wake < 0 ? t : std::min(wake, t); };
  for (auto& [pid, j] : jobs_) {
    if (j.kill_deadline > 0) at(j.kill_deadline - now);
    if (j.walltime_deadline > 0 && j.stopping == Supervised::Stopping::No) at(j.walltime_deadline - now);
    if (j.warn_deadline > 0 && j.stopping == Supervised::Stopping::No) at(std::max(0.0, j.warn_deadline - now));
    if (j.poll_memory && !j.mem_killed) at(std::max(0.0, next_rss_poll_ - now));
  }
  if (!to_remove_.empty() || tracker_.draining()) at(0.005);
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
  // The daemon raised its own limit (one descriptor per client) and says what it was.
  if (::getrlimit(RLIMIT_NOFILE, &job_nofile_) == 0)
    if (const char* usual = std::getenv("YARD_JOB_NOFILE"); usual && *usual) {
      const auto n = std::strtoull(usual, nullptr, 10);
      if (n > 0 && n < job_nofile_.rlim_cur) job_nofile_.rlim_cur = n;
    }
  if (job_nofile_.rlim_cur < job_nofile_.rlim_max) {
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
  while (sock_ >= 0 || !jobs_.empty() || !handed_.empty() || tracker_.draining()) {
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

}  // namespace job_host

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
  return job_host::Host(3).run();
}

}  // namespace yard