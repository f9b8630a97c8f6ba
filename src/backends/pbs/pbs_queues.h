// PBS Pro's and Torque's queues' limits on one job, for routes.yaml's classes: `qstat -Q
// -f` lists every queue as "Queue: NAME" and its attributes, four spaces in, "name =
// value", of which resources_max.walltime, .ncpus (Torque also .procct) and .mem.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/queue_limits.h"
#include "core/result.h"

namespace yard {

std::vector<std::string> pbs_queues_argv();

// An attribute line outside a queue, or a limit that does not read ("16 parsecs"), is an
// error naming the line. Sizes are PBS's: a number and b, kb, mb, gb, tb, pb or w (words
// of 8 bytes), in any case, powers of 1024.
Result<QueueListing> parse_pbs_queues(std::string_view out);

}  // namespace yard
