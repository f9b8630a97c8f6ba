// The job host's insides (job_host.h says what it does): its loop and signals in
// job_host.cpp, starting, stopping and ending jobs in host_jobs.cpp, launch requests
// and hand-offs in host_handoffs.cpp.
#pragma once

#include <signal.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/clock.h"
#include "core/job_state.h"
#include "local/cgroup.h"
#include "local/launch_plan.h"
#include "local/process_tracking.h"

namespace yard::job_host {

inline double now_s() { return wall_now(); }
inline double mono_s() { return monotonic_now(); }

struct Supervised {
  std::int64_t id = 0;
  pid_t pid = 0;
  int record = -1;
  double walltime_deadline = 0;  // monotonic; 0 = none
  double warn_deadline = 0;      // monotonic: --signal's moment; 0 = none, or sent
  int warn_signal = 0;
  bool warn_batch_only = false;
  double kill_deadline = 0;      // SIGKILL after the grace period; 0 = not stopping
  int kill_grace_s = 10;
  std::uint64_t mem_limit = 0;
  std::optional<MemoryCgroup> cgroup;
  TrackedGroup group;         // every process it starts (process_tracking.h)
  bool tree_ended = false;    // everything of it was killed, its group given back
  bool poll_memory = false;
  // Why the host is stopping it, which is what its end is recorded as. A reason of higher
  // rank replaces a lower one (a cancel wins over a preemption or the walltime), never
  // the other way round.
  enum class Stopping { No, TimedOut, Preempted, Cancelled };
  Stopping stopping = Stopping::No;
  bool mem_killed = false;  // over its limit, killed by the polling fallback
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
  // `sig` to the job's process group and to every other process it started.
  void signal_tree(const Supervised& j, int sig) const;
  // Kills whatever is left of an ended job (once).
  void end_tree(Supervised& j);
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
  ProcessTracker tracker_ = ProcessTracker::detect();
};

}  // namespace yard::job_host
