// Grid Engine's cluster queues' limits on one job, for routes.yaml's classes: `qconf -sq
// '*'` prints every queue's configuration, a "name value" line per key, each queue from
// its "qname" line on. Of its limits only h_rt (run time) bounds a job as a whole: slots
// and h_vmem are per host and per slot, which a class's CPUs and memory are not.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/queue_limits.h"
#include "core/result.h"

namespace yard {

std::vector<std::string> sge_queues_argv();

// h_rt: INFINITY (none), HH:MM:SS or seconds; with per-host values ("1:00:00,[node1=
// 2:00:00]") the longest, since a job may land on any host. A line before any qname, or an
// h_rt that does not read, is an error naming the line.
Result<QueueListing> parse_sge_queues(std::string_view out);

// max_aj_tasks from the global configuration (`qconf -sconf`: "max_aj_tasks  75000"): the
// most tasks of one array job; 0 there means no limit. Grid Engine's default is 75000.
std::vector<std::string> sge_config_argv();
std::optional<std::int64_t> parse_sge_max_aj_tasks(std::string_view out);

}  // namespace yard
