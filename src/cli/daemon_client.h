// Reaching the user's daemon from the CLI: one request, one reply; starts the daemon
// (detached, logging to the state directory) when none answers and the caller allows it.
#pragma once

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "server/paths.h"

namespace yard {

Result<nlohmann::json> ask_daemon(const Paths& paths, const nlohmann::json& request, bool autostart);
// Starts a daemon and waits (10 s at most) until it answers. Returns its pid.
Result<long> start_daemon(const Paths& paths);

}  // namespace yard
