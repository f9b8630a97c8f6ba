// Process tracking: every process a job starts ends with the job, whether it called
// setsid() or double-forked out of the job's process group. As slurmd's proctrack
// plugins, in order of preference, detected once when the job host starts:
//   cgroup2    a cgroup per job in a writable cgroup v2 hierarchy; ended with cgroup.kill
//              (one atomic kill, forks included), or a kill of each pid on older kernels;
//   cgroup1    a cgroup per job in a writable v1 hierarchy (pids, else freezer), whose
//              processes are killed until none is left;
//   subreaper  where no cgroup is writable (an unprivileged user without delegation): the
//              host is the child subreaper of its jobs, so their orphans become its
//              children; a job's processes are its leader's descendants, and the host's
//              orphans whose environment holds the job's YARD_JOB_ID (and theirs).
// The job host is the subreaper in every mode, so that it reaps what it kills whatever
// the machine's init does. YARD_PROCESS_TRACKING=cgroup2|cgroup1|subreaper forces a mode
// (tests use it to cover each one on one machine).
// Groups are pooled: one emptied at a job's end serves the next job, sparing the kernel
// a mkdir and an rmdir per job; the pool is removed when the host exits. Under cgroup2 a
// job's end costs one read of its group's cgroup.events, kept open, when nothing of it is
// left (the usual case).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace yard {

enum class Tracking { Cgroup2, Cgroup1, Subreaper };
std::string_view tracking_name(Tracking t);

struct TrackedGroup {
  std::string path;    // empty under Subreaper
  int procs_fd = -1;   // its cgroup.procs, open for the job to join before exec
  int events_fd = -1;  // its cgroup.events (cgroup2): "populated 0" once it is empty
};

class ProcessTracker {
 public:
  // The best mode this machine allows (or the one YARD_PROCESS_TRACKING asks for, if it
  // works here). Makes the calling process a child subreaper.
  static ProcessTracker detect();
  ProcessTracker(ProcessTracker&&) = default;
  ProcessTracker& operator=(ProcessTracker&&) = default;
  ~ProcessTracker();

  Tracking mode() const { return mode_; }
  const std::string& base() const { return base_; }

  // A group for a job about to start (an empty one under Subreaper).
  TrackedGroup acquire();
  // `sig` to every process of job `job_id` whose leader is `leader` (0 once reaped) but
  // those of the leader's process group, which the caller signals (killpg).
  void signal(const TrackedGroup& g, pid_t leader, std::int64_t job_id, int sig) const;
  // At the job's end: kills whatever is left of it; its group returns to the pool
  // once empty (see drain()).
  void end(TrackedGroup g, std::int64_t job_id);
  // Kills again what is left of ended jobs (a fork may race a kill) and pools the groups
  // now empty. True while some are not empty yet.
  bool drain();
  bool draining() const { return !draining_.empty(); }

 private:
  struct Ending {
    TrackedGroup group;
    std::int64_t job_id = 0;
    int tries = 0;
  };
  ProcessTracker(Tracking mode, std::string base) : mode_(mode), base_(std::move(base)) {}
  bool empty_now(const Ending& e) const;
  static void discard(TrackedGroup& g);  // closes its files and removes it
  void give_back(TrackedGroup& g);       // an emptied group to the pool (unless it is gone)
  // Under cgroup2: 1 while a process is in `g`, 0 once none is, -1 if it is gone.
  static int populated(const TrackedGroup& g);

  Tracking mode_ = Tracking::Subreaper;
  std::string base_;  // the directory the host's groups are made in
  int made_ = 0;
  std::vector<TrackedGroup> pool_;
  std::vector<Ending> draining_;
};

}  // namespace yard
