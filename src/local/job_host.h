// The job host: one process that starts and supervises every job of a daemon (the role
// a per-job shim such as containerd-shim or conmon plays, for all jobs at once, so that a
// job costs no process of its own besides itself).
//
// The daemon starts it (`yard __job-host FD`, a fresh exec, so it is small) and sends it
// launch requests: a plan and the job's run record, created and flock()ed by the daemon.
// The host keeps each record open, and with it the lock, while the job runs, so "record
// locked" still means "someone supervises this job", even after the daemon died. For
// each job the host:
//   - starts it in its own process group, pinned, in its memory cgroup (job_start.h);
//   - enforces the walltime: SIGTERM to the group, kill_grace seconds, SIGKILL -> TIMEOUT;
//   - enforces the memory limit in a cgroup -> OUT_OF_MEMORY; where no cgroup is
//     writable, polls the group's resident memory every 200 ms (the documented fallback);
//   - on cancel_signal() (value: the job id) stops the group -> CANCELLED; on
//     preempt_signal() the same, recorded PENDING for the daemon to requeue;
//   - reaps it (exit code or signal, CPU time, max RSS), kills what is left of its group,
//     appends the outcome to the record, closes it (the lock goes), and tells the daemon.
// A job may be handed off: sent before its predecessor (a job of the same array, on the
// same CPUs) has ended, to start the moment the predecessor is reaped, with no round trip
// to the daemon between them; a hand-off may itself have one behind it (a chain). A
// hand-off not started yet goes back on revoke_signal() (recorded PENDING), or ends
// CANCELLED on cancel_signal(); whoever waited behind it then waits for its predecessor.
// When the daemon goes away the host keeps supervising its jobs, and exits after the last.
#pragma once

namespace yard {

// The host's life, reading requests on `sock`; returns the exit status.
int run_job_host(int sock);

}  // namespace yard
