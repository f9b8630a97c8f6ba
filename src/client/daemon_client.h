// The client library: what the CLI uses to talk to the user's daemon, and what a web
// service or a Python module will use. Typed requests and replies (protocol/messages.h),
// no JSON in the caller. With `autostart`, a client starts the daemon (detached, logging
// to the state directory) when none answers, and asks again for up to 60 s while it
// restarts: requests are idempotent (a submission carries its own key).
// A daemon that holds its state directory (daemon_lock.h) is alive, however slow: a
// request that changes something (submit, cancel, shutdown) waits for it up to the
// client's patience ($YARD_PATIENCE seconds, 0 for ever; 600 by default), and then
// fails with OutcomeUnknown, never with "failed": the daemon may yet carry it out.
// Errors carry their kind: the daemon's; Unavailable when nothing reached a daemon;
// OutcomeUnknown as above; Invalid for a request over the daemon's size limit.
#pragma once

#include <functional>

#include "client/connection.h"
#include "client/paths.h"
#include "core/result.h"
#include "protocol/messages.h"

namespace yard {

class DaemonClient {
 public:
  explicit DaemonClient(Paths paths, bool autostart = false) : paths_(std::move(paths)), autostart_(autostart) {}

  // A submission without a key gets one of its own.
  Result<SubmitReply> submit(SubmitRequest request);
  // Many jobs at once, stored together or not at all (a flow's steps: `yard run`);
  // sent again after a broken connection, as submit is, under one key.
  Result<SubmitManyReply> submit_many(SubmitManyRequest request);
  Result<CancelReply> cancel(const CancelRequest& request);
  // Holds, releases or requeues jobs (yard hold|release|requeue): the ids acted on.
  Result<JobActionReply> act(const JobActionRequest& request);
  Result<PingReply> ping(int timeout_ms = 5000);
  Result<ShutdownReply> shutdown(const ShutdownRequest& request);

  // The read side (daemon_queries.cpp; protocol/queries.h). One page of jobs, or every
  // page of them; one job in full; a byte range of its output; the accounts.
  Result<JobsReply> jobs(const JobsRequest& request);
  Result<std::vector<JobRecord>> all_jobs(JobQuery query);
  Result<JobReply> job(std::int64_t id);
  Result<LogsReply> logs(const LogsRequest& request);
  Result<AccountsReply> accounts();
  // The routes in force (routes.yaml), as the daemon read them.
  Result<RoutesReply> routes();
  Result<RoutesMoveReply> move_jobs(const RoutesMoveRequest& request);
  // Until every job named ends (the daemon tells: no polling); nullopt after `timeout_s`
  // (0: for ever). A daemon that restarts meanwhile is asked again (started if gone).
  Result<std::optional<WaitReply>> wait(const WaitRequest& request, double timeout_s);
  // The event log from `request.since`, each event to `on_event` (false: stop), in order;
  // after a lost connection it goes on from the last event seen (nothing missed, nothing
  // twice). Returns when stopped, or without follow at the end of the log.
  Status watch(WatchRequest request, const std::function<bool(const LoggedEvent&)>& on_event);
  // The events after `request.since` that are there, or the first to come within
  // `timeout_s`, with those right behind it (at most `max_events`): a client that holds
  // no thread in a stream for ever (the Python module, a web page) asks again from the
  // last id it got. Empty after the timeout.
  Result<std::vector<LoggedEvent>> poll_events(WatchRequest request, double timeout_s, std::size_t max_events = 10000);
  // Flows (flow_queries.cpp; protocol/flows.h): newest first (0: all), one with its steps,
  // and the digests the daemon knows of files.
  Result<FlowsReply> flows(std::int64_t limit);
  Result<FlowReply> flow(std::int64_t id);
  Result<DigestsReply> digests(const DigestsRequest& request);

  const Paths& paths() const { return paths_; }
  // Told once when the client starts waiting past the usual time for a silent daemon
  // (the CLI prints it, so a user sees why a command takes long).
  void on_notice(std::function<void(const std::string&)> notice) { notice_ = std::move(notice); }

 private:
  // The reply line to `line`, starting the daemon and asking again if allowed; `acts`:
  // the request changes something, and a silent daemon is waited for (see above).
  Result<std::string> ask(const std::string& line, int timeout_ms, bool acts);
  static double patience_s();
  // A connection for a stream, starting the daemon if allowed (daemon_queries.cpp).
  Result<LineStream> open_stream(const std::string& line);
  Paths paths_;
  bool autostart_ = false;
  std::function<void(const std::string&)> notice_;
};

// Starts a daemon and waits (10 s at most) until it answers. Returns its pid; if the
// daemon could not start, its own reason, at once (and `refused` is set: the daemon said
// why it will not run, so asking again cannot help, even while that daemon, exiting,
// still holds its lock).
Result<long> start_daemon(const Paths& paths, bool* refused = nullptr);

}  // namespace yard
