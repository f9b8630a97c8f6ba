// Launcher: a small process, forked when the daemon starts and before it grows, that
// forks the job supervisors on the daemon's behalf.
//
// Why: a supervisor forked straight from the daemon shares the daemon's pages
// copy-on-write for as long as it lives, so every page the daemon then writes (SQLite
// cache, heap) faulted and was copied — about 200 faults per job, most of the daemon's
// CPU time with short jobs. Forking from a process of a few pages costs almost nothing.
//
// The launcher keeps no state: it reads a plan and a locked run record (SCM_RIGHTS),
// forks the supervisor, answers with its pid and a pidfd, and reaps it when it exits.
// It ends when the daemon closes its socket (or dies). Supervisors outlive it.
#pragma once

#include <sys/types.h>

#include "core/result.h"
#include "local/launch_plan.h"

namespace yard {

struct Launched {
  pid_t pid = 0;
  int pidfd = -1;  // becomes readable when the supervisor exits
};

class Launcher {
 public:
  // Forks the launcher. Call while the process is small and single-threaded.
  static Result<Launcher> start();
  Launcher(Launcher&& o) noexcept;
  Launcher& operator=(Launcher&&) = delete;
  ~Launcher();

  // Starts a supervisor for `plan` that inherits `record_fd` (and its lock).
  Result<Launched> launch(const LaunchPlan& plan, int record_fd);

 private:
  Launcher(int sock, pid_t pid) : sock_(sock), pid_(pid) {}
  int sock_ = -1;
  pid_t pid_ = 0;
};

// The plan as the launcher receives it (also used by the tests).
std::string encode_launch_plan(const LaunchPlan& p);
Result<LaunchPlan> decode_launch_plan(const std::string& text);

}  // namespace yard
