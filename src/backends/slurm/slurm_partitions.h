// Slurm's partitions' limits on one job, for routes.yaml's classes: `scontrol show
// partition --oneliner` lists every partition, one line each of Key=Value words.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/queue_limits.h"
#include "core/result.h"

namespace yard {

std::vector<std::string> slurm_partitions_argv();

// Per partition: MaxTime; the CPUs of its nodes (TotalCPUs, or MaxNodes x MaxCPUsPerNode
// when fewer); MaxMemPerNode (MB) times the nodes a job may have, or MaxMemPerCPU times
// its CPUs. UNLIMITED, INFINITE and NONE state no limit. A line without PartitionName=,
// or a limit that does not read, is an error naming the line.
Result<QueueListing> parse_slurm_partitions(std::string_view out);

// MaxArraySize from `scontrol show config` ("MaxArraySize            = 1001"): every array
// index must be below it. Slurm's default is 1001.
std::vector<std::string> slurm_config_argv();
std::optional<std::int64_t> parse_slurm_max_array_size(std::string_view out);

}  // namespace yard
