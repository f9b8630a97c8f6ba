// One daemon per state directory: it holds an flock on daemon.lock for its whole life,
// and writes its pid there, so the CLI can find it even when its socket is gone (and
// `yard server stop` can still stop it).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

#include "core/result.h"

namespace yard {

// Takes the lock (not blocking) and writes this process's pid into the file. Returns
// the open descriptor (close-on-exec: a restarting daemon takes it again); a Conflict
// error when another process holds it.
Result<int> take_daemon_lock(const std::string& path);

// The pid of the live daemon holding the lock at `path`, if any.
std::optional<pid_t> daemon_lock_holder(const std::string& path);

}  // namespace yard
