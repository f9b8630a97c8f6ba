// The keys of yard's settings files, each with what it means and its default: the readers
// refuse a key that is not in their table (naming the ones there are), and the reference
// (`yard __markdown`, docs/reference/settings.md) is written from the same tables, so the
// two cannot drift apart.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace yard {

struct SettingDoc {
  std::string_view key;
  std::string_view meaning;
  std::string_view default_value;  // as a reader would write it; "" for none
};

// "cpus, memory, gpus": the keys, for an error naming the accepted ones.
inline std::string setting_names(std::span<const SettingDoc> table) {
  std::string out;
  for (const auto& s : table) out += (out.empty() ? "" : ", ") + std::string(s.key);
  return out;
}

inline std::vector<std::string> setting_keys(std::span<const SettingDoc> table) {
  std::vector<std::string> out;
  for (const auto& s : table) out.emplace_back(s.key);
  return out;
}

inline bool has_setting(std::span<const SettingDoc> table, std::string_view key) {
  for (const auto& s : table)
    if (s.key == key) return true;
  return false;
}

// local.yaml: the machine as the local scheduler sees it (local/machine.cpp reads it).
inline constexpr SettingDoc kLocalSettings[] = {
    {"cpus", "the CPUs the scheduler counts", "what hwloc finds"},
    {"memory", "the memory it counts, a size as --mem takes it", "what hwloc finds"},
    {"gpus", "the GPUs it counts", "what hwloc finds"},
    {"job_limit", "running jobs at most", "no limit"},
    {"kill_grace", "seconds between SIGTERM and SIGKILL when a job is stopped (time limit, cancel)", "10"},
    {"memory_limit", "poll: enforce --mem by polling the job's resident memory instead of a cgroup", "cgroups"},
    {"handoff_wait", "seconds an array element handed to a running sibling's CPUs may wait for them (0 to 3600; 0 turns "
                     "hand-offs off)", "see docs/ARCHITECTURE.md"},
    {"sendmail", "the program (an absolute path) that sends the mail of --mail-type", "/usr/sbin/sendmail"},
};

// Every cluster backend's settings file (slurm.yaml, ...): polling, throttles, failover
// and the direct modes (backends/indirect_config.cpp reads them).
inline constexpr SettingDoc kClusterSettings[] = {
    {"poll_interval", "seconds between status cycles (one listing of every tracked job)", "1"},
    {"calls_per_second", "the rate of the token bucket every call to the scheduler goes through", "1.8"},
    {"burst", "the size of that bucket: calls that may go at once", "4"},
    {"command_timeout", "seconds a scheduler command may take", "60"},
    {"retry_max", "the longest back-off between retries of a failing call, in seconds", "60"},
    {"lost_after", "seconds a job may be absent from the queue and the accounting before it is LOST", "60"},
    {"cancel_resend", "seconds before a cancel not yet seen is sent again", "30"},
    {"down_after_failures", "failed calls in a row after which the scheduler is down (its fallback takes new jobs)", "3"},
    {"down_after", "seconds of failed calls after which it is down", "60"},
    {"max_queued", "jobs yard keeps in the scheduler's queue at most (the others wait in yard)", "no limit"},
    {"submit_rate", "submissions at most: 10/min, 2/s, 100/h, 5/30s", "no limit"},
    {"max_array_size", "elements of one array at most: a larger one is refused at submission (the Python module's "
                       "map splits at it)", "the scheduler's: what its configuration says where yard reads it (Slurm's "
                       "MaxArraySize), else its documented default"},
    {"allocation", "direct mode (the SCHEDULER-steps backends): the allocation's job id, or pilot", ""},
    {"pilot", "direct mode: what the pilot job asks for (partition, nodes, cpus, mem, time)", ""},
    {"job_limit", "direct mode: steps running at once", "no limit"},
    {"classes", "classes of jobs, each a backend and defaults (routes.yaml's classes are the current way)", ""},
};

}  // namespace yard
