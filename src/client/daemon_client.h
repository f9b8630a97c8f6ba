// The client library: what the CLI uses to talk to the user's daemon, and what a web
// service or a Python module will use. Typed requests and replies (protocol/messages.h),
// no JSON in the caller. With `autostart`, a client starts the daemon (detached, logging
// to the state directory) when none answers, and asks again for up to 60 s while it
// restarts: requests are idempotent (a submission carries its own key).
// Errors carry their kind: the daemon's, or Unavailable when it cannot be reached.
#pragma once

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

 private:
  // The reply line to `line`, starting the daemon and asking again if allowed.
  Result<std::string> ask(const std::string& line, int timeout_ms);
  Paths paths_;
  bool autostart_ = false;
};

// Starts a daemon and waits (10 s at most) until it answers. Returns its pid; if the
// daemon could not start, its own reason, at once.
Result<long> start_daemon(const Paths& paths);

}  // namespace yard
