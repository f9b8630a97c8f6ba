// Where a user's daemon keeps its files (XDG base directories), so two users, or two
// test runs with different HOME, never share a daemon:
//   socket  $XDG_RUNTIME_DIR/switchyard/yard.sock   (else /tmp/switchyard-$UID/yard.sock)
//   store   $XDG_STATE_HOME/switchyard/store.db     (else ~/.local/state/switchyard/)
//   log     $XDG_STATE_HOME/switchyard/daemon.log
//   config  $XDG_CONFIG_HOME/switchyard/local.yaml  (else ~/.config/switchyard/; or $YARD_CONFIG)
//   policy  $XDG_CONFIG_HOME/switchyard/policy.yaml (else ~/.config/switchyard/; or $YARD_POLICY)
// The runtime and state directories are created 0700, and the runtime directory must be
// owned by the user: nobody else can reach the socket, nor read the store (which holds
// every job's environment, arguments and script).
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace yard {

struct Paths {
  std::string runtime_dir, state_dir, socket, store, log, lock, config, policy;
};

Paths default_paths();
// Creates the directories with safe permissions; refuses a runtime dir owned by another user.
Status ensure_dirs(const Paths& p);
// Tightens what an older yard, or a wide umask, left readable by others: the state
// directory to 0700, the store (with its -wal and -shm), the log and the lock to 0600.
// Returns one line per change, for the daemon's log.
std::vector<std::string> make_state_private(const Paths& p);

}  // namespace yard
