// The per-user daemon: one event loop (poll) over its Unix socket, the clients'
// connections and the job host's socket and pidfd; it drives the LocalBackend.
// Only the owner gets in: the socket sits in a 0700 directory and every connection's
// peer uid is checked (SO_PEERCRED). One daemon per state directory (an flock on
// daemon.lock); a second one exits at once.
#pragma once

#include "server/paths.h"

namespace yard {

// Runs in the foreground until SIGTERM/SIGINT or a shutdown request. Returns an exit code.
int run_daemon(const Paths& paths);

}  // namespace yard
