// Flux's queues' limits on one job, for routes.yaml's classes: `flux queue list` with a
// format of its own (the default table changes between releases, colours its marks and
// drops its QUEUE column on a system without named queues), one line per queue:
// "NAME,TLIMIT,MAXCORES" with the limits in seconds and cores, "inf" for none. Flux's
// queue policy has no memory limit.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/queue_limits.h"
#include "core/result.h"

namespace yard {

std::vector<std::string> flux_queues_argv();

// A system without named queues lists one queue named "" (no queue a route may name). A
// line that does not read is an error naming it.
Result<QueueListing> parse_flux_queues(std::string_view out);

}  // namespace yard
