// The per-user daemon: one event loop (poll) over its Unix socket, the clients'
// connections and the descriptors its backends watch; it drives every backend through
// the one interface of backends/backend.h, and answers requests (requests.h).
// Only the owner gets in: the socket sits in a 0700 directory and every connection's
// peer uid is checked (SO_PEERCRED). One daemon per state directory (an flock on
// daemon.lock); a second one exits at once.
#pragma once

#include "backends/backend_registry.h"
#include "client/paths.h"

namespace yard {

// Runs in the foreground until SIGTERM/SIGINT or a shutdown request, with the backends
// of `registry` (all_backends(); a test gives its own). Returns an exit code.
int run_daemon(const Paths& paths, const BackendRegistry& registry);

}  // namespace yard
