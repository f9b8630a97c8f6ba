// Reading /proc for what the job host must know of processes it did not start itself:
// the resident memory of process groups (the memory limit's fallback) and the process
// tree (the process tracking's fallback). Each call is one scan of /proc.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace yard {

// The resident memory of every process group, summed over its processes.
std::unordered_map<pid_t, std::uint64_t> rss_by_group();

// Every live process's children (zombies left out: they hold nothing).
std::unordered_map<pid_t, std::vector<pid_t>> children_by_parent();

// `root`'s descendants in `tree`, `root` left out, parents before their children.
std::vector<pid_t> descendants(const std::unordered_map<pid_t, std::vector<pid_t>>& tree, pid_t root);

// Whether `pid`'s initial environment holds `entry` ("NAME=value") exactly.
bool environment_has(pid_t pid, std::string_view entry);

}  // namespace yard
