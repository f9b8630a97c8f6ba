// LSF's queues' limits on one job, for routes.yaml's classes: `bqueues -l` prints each
// queue from its "QUEUE: NAME" line; its limits come in groups, a line of names (" RUNLIMIT
// TASKLIMIT") over a line of values (" 720.0 min  4"), after "MAXIMUM LIMITS:" where the
// queue also has defaults (those after "DEFAULT LIMITS:" are not limits). Read: RUNLIMIT
// (minutes) and TASKLIMIT (PROCLIMIT before LSF 10.1; its last number is the most).
// MEMLIMIT is not read: LSF applies it per process unless the site set LSB_JOB_MEMLIMIT,
// which the listing does not say, so it cannot be held against a class's memory per job.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/queue_limits.h"
#include "core/result.h"

namespace yard {

std::vector<std::string> lsf_queues_argv();

// A limit's line of values that does not read, or a group before any QUEUE: line, is an
// error naming the line.
Result<QueueListing> parse_lsf_queues(std::string_view out);

}  // namespace yard
