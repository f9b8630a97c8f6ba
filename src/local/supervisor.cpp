#include "local/supervisor.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include "local/cgroup.h"
#include "local/run_record.h"

namespace yard {
namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double mono_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Sum of the resident memory of every process in process group `pgid`, from /proc.
std::uint64_t group_rss_bytes(pid_t pgid) {
  std::uint64_t total = 0;
  DIR* d = ::opendir("/proc");
  if (!d) return 0;
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
    if (pg == pgid && rss > 0) total += static_cast<std::uint64_t>(rss) * static_cast<std::uint64_t>(page);
  }
  ::closedir(d);
  return total;
}

// In the job's process, between fork and exec. Reports failures through `err_fd`.
[[noreturn]] void exec_job(const LaunchPlan& p, int err_fd, const std::optional<MemoryCgroup>& cg) {
  auto fail = [&](const std::string& what) {
    std::string msg = what + ": " + std::strerror(errno);
    (void)!::write(err_fd, msg.data(), msg.size());
    ::_exit(127);
  };
  ::setpgid(0, 0);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int s : {SIGTERM, SIGINT, SIGCHLD, SIGPIPE, SIGHUP, SIGUSR1, SIGUSR2}) ::signal(s, SIG_DFL);
  if (cg && !cg->add(::getpid())) fail("cannot join memory cgroup " + cg->path());
  if (!p.pus.empty()) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int pu : p.pus) CPU_SET(static_cast<std::size_t>(pu), &set);
    ::sched_setaffinity(0, sizeof set, &set);  // best effort: a declared larger node may not map
  }
  if (::chdir(p.workdir.c_str()) != 0) fail("cannot enter working directory " + p.workdir);
  int in = ::open("/dev/null", O_RDONLY);
  int out = ::open(p.stdout_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (out < 0) fail("cannot open output file " + p.stdout_path);
  int errfile = out;
  if (p.stderr_path != p.stdout_path) {
    errfile = ::open(p.stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (errfile < 0) fail("cannot open error file " + p.stderr_path);
  }
  ::dup2(in, 0);
  ::dup2(out, 1);
  ::dup2(errfile, 2);
  std::vector<char*> argv, envp;
  for (auto& a : p.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (auto& e : p.env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  // PATH lookup uses the job's own PATH.
  for (auto& e : p.env)
    if (e.rfind("PATH=", 0) == 0) ::setenv("PATH", e.c_str() + 5, 1);
  ::execvpe(argv[0], argv.data(), envp.data());
  fail("cannot run '" + p.argv[0] + "'");
  ::_exit(127);
}

}  // namespace

[[noreturn]] void run_supervisor(const LaunchPlan& p, int record_fd) {
  ::setsid();  // leave the daemon's session: a terminal's signals never reach the job
  // Keep only the record; everything else the daemon had open is not ours.
  int rec = ::fcntl(record_fd, F_DUPFD_CLOEXEC, 3);
  ::dup2(rec, 3);
  ::close_range(4, ~0U, 0);
  ::fcntl(3, F_SETFD, FD_CLOEXEC);
  record_fd = 3;
  int devnull = ::open("/dev/null", O_RDWR);
  ::dup2(devnull, 0), ::dup2(devnull, 1), ::dup2(devnull, 2);
  if (devnull > 3) ::close(devnull);

  append_record(record_fd, "supervisor_pid=" + std::to_string(::getpid()) + "\n");

  sigset_t mask;
  sigemptyset(&mask);
  for (int s : {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2}) sigaddset(&mask, s);
  ::sigprocmask(SIG_BLOCK, &mask, nullptr);
  ::signal(SIGCHLD, SIG_DFL);
  ::signal(SIGPIPE, SIG_IGN);

  RunOutcome o;
  auto finish = [&](RunOutcome& out) {
    out.end_time = now_s();
    append_record(record_fd, format_outcome(out));
    ::_exit(0);
  };

  std::optional<MemoryCgroup> cg;
  if (p.mem_limit_bytes > 0) {
    auto c = MemoryCgroup::create(p.uid, p.mem_limit_bytes);
    if (c) cg = std::move(*c);
  }

  int errpipe[2];
  if (::pipe2(errpipe, O_CLOEXEC) != 0) {
    o.reason = "cannot create a pipe";
    finish(o);
  }
  // vfork: the job shares our memory until it execs, so starting it costs no copy of
  // the page tables (it dominated the cost of short jobs). The child only sets up its
  // process and execs or _exits (exec_job never returns); we are suspended meanwhile.
  pid_t job = ::vfork();
  if (job < 0) {
    o.reason = std::string("cannot fork the job: ") + std::strerror(errno);
    finish(o);
  }
  if (job == 0) {
    ::close(errpipe[0]);
    exec_job(p, errpipe[1], cg);
  }
  ::setpgid(job, job);  // also here, so killpg works even before the child ran
  ::close(errpipe[1]);
  append_record(record_fd, "job_pid=" + std::to_string(job) + "\n");
  char errbuf[512];
  ssize_t n = ::read(errpipe[0], errbuf, sizeof errbuf);  // EOF on successful exec
  ::close(errpipe[0]);
  const bool launch_failed = n > 0;

  const double start = mono_s();
  const double walltime_deadline = p.walltime_s > 0 ? start + static_cast<double>(p.walltime_s) : 0;
  double kill_deadline = 0;
  // SIGUSR2 = preempted: stop the job like a cancel, but report PENDING (to be requeued).
  bool cancelled = false, timed_out = false, mem_killed = false, requeued = false;
  const bool poll_memory = p.mem_limit_bytes > 0 && !cg;
  int status = 0;
  rusage ru{};

  auto terminate_group = [&]() {
    ::killpg(job, SIGTERM);
    ::killpg(job, SIGCONT);
    if (kill_deadline == 0) kill_deadline = mono_s() + p.kill_grace_s;
  };

  for (;;) {
    pid_t w = ::wait4(job, &status, WNOHANG, &ru);
    if (w == job) break;
    double now = mono_s();
    if (kill_deadline > 0 && now >= kill_deadline) {
      ::killpg(job, SIGKILL);
      if (cg) cg->kill_all();
      kill_deadline = now + 3600;  // already sent; keep waiting for the exit
    }
    if (walltime_deadline > 0 && !timed_out && !cancelled && now >= walltime_deadline) {
      timed_out = true;
      terminate_group();
    }
    if (poll_memory && !mem_killed && group_rss_bytes(job) > p.mem_limit_bytes) {
      mem_killed = true;
      ::killpg(job, SIGKILL);
    }
    double wake = 3600;
    if (kill_deadline > 0) wake = std::min(wake, kill_deadline - now);
    if (walltime_deadline > 0 && !timed_out) wake = std::min(wake, walltime_deadline - now);
    if (poll_memory) wake = std::min(wake, 0.2);
    if (wake < 0.001) wake = 0.001;
    timespec ts{static_cast<time_t>(wake), static_cast<long>((wake - static_cast<double>(static_cast<time_t>(wake))) * 1e9)};
    siginfo_t info;
    int sig = ::sigtimedwait(&mask, &info, &ts);
    if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGUSR1) {
      if (!cancelled && !timed_out) {
        cancelled = true;
        terminate_group();
      }
    } else if (sig == SIGUSR2) {
      if (!cancelled && !timed_out && !requeued) {
        requeued = true;
        terminate_group();
      }
    }
  }
  ::killpg(job, SIGKILL);  // nothing of the job outlives it
  bool oom = mem_killed;
  std::uint64_t peak = 0;
  if (cg) {
    cg->kill_all();
    oom = oom || cg->oom_killed();
    peak = cg->peak_bytes();
    cg->remove();
  }

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
  if (launch_failed) {
    o.state = JobState::Failed;
    o.reason = std::string(errbuf, static_cast<std::size_t>(n));
  } else if (cancelled) {
    o.state = JobState::Cancelled;
    o.reason = "cancelled";
  } else if (requeued) {
    o.state = JobState::Pending;
    o.reason = "preempted";
  } else if (timed_out) {
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
  finish(o);
  ::_exit(0);
}

Result<pid_t> start_supervisor(const LaunchPlan& plan, int record_fd) {
  pid_t pid = ::fork();
  if (pid < 0) return err(std::string("cannot fork a supervisor: ") + std::strerror(errno));
  if (pid == 0) run_supervisor(plan, record_fd);
  return pid;
}

}  // namespace yard
