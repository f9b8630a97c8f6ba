// The daemon's answer to each request of its protocol (protocol/messages.h): one
// function per operation, on typed requests and replies, testable without a socket.
// They run inside the loop iteration's store transaction; a reply is sent only after its
// commit.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "backends/backend_registry.h"
#include "client/paths.h"
#include "protocol/messages.h"
#include "store/store.h"

namespace yard {

struct DaemonState {
  Store& store;
  const Backends& backends;
  const Paths& paths;
  bool draining = false;  // shutdown --kill-jobs: no more submissions, stop when all ended
  bool stopping = false;  // leave the loop after this iteration
};

Result<SubmitReply> handle(DaemonState& daemon, SubmitRequest request, double now);
Result<SubmitManyReply> handle(DaemonState& daemon, SubmitManyRequest request, double now);  // submit_many.cpp
Result<CancelReply> handle(DaemonState& daemon, const CancelRequest& request, double now);
Result<JobActionReply> handle(DaemonState& daemon, const JobActionRequest& request, double now);
PingReply handle(DaemonState& daemon, const PingRequest& request);
ShutdownReply handle(DaemonState& daemon, const ShutdownRequest& request);

// What the daemon does with a request line: decoded, handled, encoded; never throws.
struct Answer {
  std::string line;  // the reply; "" for a wait or a watch, answered later (subscribers.h)
  // The reply reports a change the iteration's commit must hold (submitted or cancelled
  // ids), so that a failed commit turns it into an error.
  bool changed = false;
  std::optional<WaitRequest> wait;
  std::optional<WatchRequest> watch;
};
Answer answer(DaemonState& daemon, std::string_view line, double now);

// answer()'s reply line alone (for requests that are not streams).
std::string handle_line(DaemonState& daemon, std::string_view line, double now, bool& changed);

}  // namespace yard
