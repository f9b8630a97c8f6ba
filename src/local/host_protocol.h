// What the daemon and its job host (job_host.h) say to each other.
//
// Over a SOCK_SEQPACKET socketpair (message boundaries kept):
//   daemon -> host: "<job id>[ <predecessor id>]\n<launch plan as JSON>", with the job's
//                   locked run record attached (SCM_RIGHTS); the host answers nothing, it
//                   starts the job, or, given a predecessor that still runs (or waits as
//                   a hand-off itself), starts it the moment the predecessor ends, on its
//                   CPUs (a hand-off, see job_host.h).
//   host -> daemon: "id=<job id>\n" followed by the run record's text (job_pid=...,
//                   then the outcome ending in done=1) when the job has ended.
// Cancel and preemption go as queued signals carrying the job id (sigqueue value), so
// that a daemon can reach a host it did not start (one that outlived an earlier daemon):
//   kCancelSignal  -> stop the job's process group: CANCELLED;
//   kPreemptSignal -> stop it the same way, recorded PENDING: the daemon requeues it;
//   kRevokeSignal  -> a hand-off not started yet goes back: recorded PENDING, requeued.
#pragma once

#include <signal.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"
#include "local/launch_plan.h"
#include "local/run_record.h"

namespace yard {

inline int cancel_signal() { return SIGRTMIN; }
inline int preempt_signal() { return SIGRTMIN + 1; }
inline int revoke_signal() { return SIGRTMIN + 2; }
// What the host reads from its signalfd: SIGCHLD and the three above. Blocked from the
// host's very start (see JobHostLink::start), so none can kill it while it loads.
sigset_t host_signals();

// Plans carry a job's whole environment; a message must fit the socket buffer.
constexpr int kMaxHostMessage = 4 << 20;

std::string encode_launch(std::int64_t job_id, const LaunchPlan& p, std::int64_t after = 0);
// The job id is read even when the plan is malformed (0 if not even that).
struct DecodedLaunch {
  std::int64_t job_id = 0;
  std::int64_t after = 0;  // the predecessor it is handed to (0: start now)
  Result<LaunchPlan> plan;
};
DecodedLaunch decode_launch(std::string_view text);

std::string encode_ended(std::int64_t job_id, std::string_view record_text);
struct Ended {
  std::int64_t job_id = 0;
  RunRecord record;
};
Ended decode_ended(std::string_view text);

// Sends `data` with at most one descriptor attached (fd < 0: none). MSG_DONTWAIT with
// `nonblocking`; false if not all was sent (errno tells why).
bool send_with_fd(int sock, std::string_view data, int fd, bool nonblocking = false);
// Receives one message and the descriptor attached to it (-1 if none). False at EOF, on
// error, or (non-blocking socket) when nothing waits.
bool recv_with_fd(int sock, std::string& data, int& fd);

// Queues `sig` with the job id as its value to the host behind `host_pidfd`.
bool signal_host(int host_pidfd, int sig, std::int64_t job_id);

}  // namespace yard
