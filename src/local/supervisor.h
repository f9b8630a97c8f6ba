// The per-job supervisor (in the spirit of containerd-shim and conmon). The daemon forks
// one per job; it starts the job in its own process group, pinned to its CPUs, with its
// environment, working directory and output files, and then:
//   - enforces the walltime: SIGTERM to the group, kill_grace seconds, SIGKILL -> TIMEOUT;
//   - enforces the memory limit in a cgroup (v1 or v2) -> OUT_OF_MEMORY; where no cgroup
//     is writable it polls the resident memory of the group every 200 ms and kills it
//     when over the limit (the documented fallback);
//   - on SIGTERM from the daemon (cancel) kills the whole group -> CANCELLED;
//   - on SIGUSR2 from the daemon (preemption) kills the whole group the same way -> PENDING
//     in the run record, which the daemon reads as "requeue" (a later SIGTERM still wins);
//   - reaps the job (exit code or signal, CPU time, max RSS) and kills any process left
//     in the group;
//   - writes the outcome to the run record and exits.
// The supervisor does not depend on the daemon being alive: if the daemon is killed, the
// job runs on and its outcome waits in the run record for the next daemon.
#pragma once

#include <sys/types.h>

#include "core/result.h"
#include "local/launch_plan.h"

namespace yard {

// Forks the supervisor. `record_fd` is the locked run record (O_APPEND); the child keeps
// it, and with it the lock; the caller should close its copy. Must be called from a
// single-threaded process. Returns the supervisor's pid.
Result<pid_t> start_supervisor(const LaunchPlan& plan, int record_fd);

// The supervisor's life, in the forked child; never returns.
[[noreturn]] void run_supervisor(const LaunchPlan& plan, int record_fd);

}  // namespace yard
