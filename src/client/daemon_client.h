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

#include "core/result.h"
#include "protocol/messages.h"
#include "server/paths.h"

namespace yard {

class DaemonClient {
 public:
  explicit DaemonClient(Paths paths, bool autostart = false) : paths_(std::move(paths)), autostart_(autostart) {}

  // A submission without a key gets one of its own.
  Result<SubmitReply> submit(SubmitRequest request);
  Result<CancelReply> cancel(const CancelRequest& request);
  Result<PingReply> ping(int timeout_ms = 5000);
  Result<ShutdownReply> shutdown(const ShutdownRequest& request);

  const Paths& paths() const { return paths_; }
  // Told once when the client starts waiting past the usual time for a silent daemon
  // (the CLI prints it, so a user sees why a command takes long).
  void on_notice(std::function<void(const std::string&)> notice) { notice_ = std::move(notice); }

 private:
  // The reply line to `line`, starting the daemon and asking again if allowed; `acts`:
  // the request changes something, and a silent daemon is waited for (see above).
  Result<std::string> ask(const std::string& line, int timeout_ms, bool acts);
  static double patience_s();
  Paths paths_;
  bool autostart_ = false;
  std::function<void(const std::string&)> notice_;
};

// Starts a daemon and waits (10 s at most) until it answers. Returns its pid; if the
// daemon could not start, its own reason, at once.
Result<long> start_daemon(const Paths& paths);

}  // namespace yard
