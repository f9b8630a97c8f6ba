// The machine the local backend schedules on: its CPUs, memory and GPUs, found with
// hwloc, or declared in a config file (so tests can model a node larger than the host).
//
// Config (YAML), every key optional:
//   cpus: 16          # schedulable CPUs; pinned round-robin onto the real PUs
//   memory: 64G       # schedulable memory
//   gpus: 2           # GPUs, handed out through CUDA_VISIBLE_DEVICES
//   job_limit: 8      # at most this many jobs running at once (0 = no limit)
//   kill_grace: 10    # seconds between SIGTERM and SIGKILL at walltime or cancel
//   handoff_wait: 0.5 # seconds a job handed the CPUs of a running one of its kind may
//                     # wait for them before it goes back to the queue (0: no hand-offs)
//   memory_limit: cgroup  # how --mem is enforced: cgroup (when one is writable, else
//                         # poll), or poll (the resident memory of the job's processes,
//                         # every 200 ms, for systems whose cgroups are someone else's)
//   sendmail: /usr/sbin/sendmail  # what sends the mail of --mail-type ("": no mail)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace yard {

// This host's name up to its first dot (what Slurm's %N gives); "" if unknown.
std::string short_hostname();

struct Machine {
  int cpus = 1;
  int nodes = 1;  // more only for a Slurm allocation run in direct mode
  std::uint64_t mem_bytes = 0;
  int gpus = 0;
  int job_limit = 0;
  int kill_grace_s = 10;
  bool memory_poll = false;  // memory_limit: poll
  double handoff_wait_s = 0.5;
  std::string sendmail = "/usr/sbin/sendmail";
  std::vector<int> pus;  // OS indices of the real processing units, for pinning
  // The node's short hostname: %N in output patterns. Every Machine is this host (direct
  // mode's steps too, whose output files are opened here).
  std::string hostname = short_hostname();

  // The real PU that schedulable CPU `cpu` is pinned to.
  int pu_for(int cpu) const { return pus.empty() ? cpu : pus[static_cast<std::size_t>(cpu) % pus.size()]; }
};

// The host as hwloc sees it.
Result<Machine> detect_machine();

// The host, overridden by the config file at `path` if it exists (absent = host as is).
Result<Machine> load_machine(const std::string& config_path);

}  // namespace yard
