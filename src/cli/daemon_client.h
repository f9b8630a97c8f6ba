// Reaching the user's daemon from the CLI: one request, one reply; starts the daemon
// (detached, logging to the state directory) when none answers and the caller allows it,
// and then asks again (requests are idempotent: a submission carries its own key).
// Errors carry their kind: the daemon's, or Unavailable when it cannot be reached.
#pragma once

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "server/paths.h"

namespace yard {

Result<nlohmann::json> ask_daemon(const Paths& paths, nlohmann::json request, bool autostart);
// Starts a daemon and waits (10 s at most) until it answers. Returns its pid; if the
// daemon could not start, its own reason, at once.
Result<long> start_daemon(const Paths& paths);

}  // namespace yard
