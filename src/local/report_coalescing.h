// Job ends come in bursts at short jobs. When the job host's reports are all that woke
// the daemon's loop and every CPU has a hand-off queued behind its job (so the CPUs stay
// busy), the loop waits a little more for further ends, or anything else, and records
// them all in one transaction: fewer commits and wake-ups per job.
#pragma once

#include <poll.h>

#include <vector>

#include "local/local_backend.h"

namespace yard {

// Updates `fds`' revents with what arrived during the extra wait (if it waited).
void coalesce_host_reports(std::vector<pollfd>& fds, int host_fd, const std::vector<LocalBackend*>& locals);

}  // namespace yard
