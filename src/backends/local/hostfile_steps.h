// Direct mode inside a job of a scheduler that describes its allocation by a host file
// (`--backend <scheduler>-steps`), a host a line, a line a slot. The daemon runs inside
// that job (its id and host file in its environment); a local scheduler sized to the
// file's slots runs each yard job in it, with the local backend's supervision and crash
// survival:
//   - a job runs once, as a batch script does, on the host of its first slot: here when
//     that is this host, else through the scheduler's own launcher (remote_launch, then
//     the host); its own node file (the scheduler's variable, and YARD_NODEFILE) lists
//     the slots it was given;
//   - `--launcher mpirun`: one mpirun here with `--host` the job's hosts and its tasks on
//     each (reaching the other hosts through the scheduler's own launcher).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.h"
#include "backends/indirect_backend.h"
#include "local/launch_plan.h"
#include "local/local_backend.h"

namespace yard {

// What tells one scheduler's allocations from another's.
struct HostfileScheduler {
  std::string backend;            // "<scheduler>-steps"
  std::string allocation_kind;    // "a <scheduler> job", in messages
  std::string id_variable;        // the variable holding the job's id
  std::string hostfile_variable;  // the variable naming its host file
  std::vector<std::string> remote_launch;  // the launcher: then the host, then the command
  std::string mpirun_agent;       // OMPI_MCA_plm_rsh_agent (the launcher); empty: mpirun's own
};

struct HostfileAllocation {
  std::string job_id;
  std::vector<std::string> slots;  // the host of each slot, in the file's order
  int nodes() const;
};

// The host file's lines (blank ones skipped); an error names the file and line of a
// line that is no host name. `origin` names the file in messages.
Result<HostfileAllocation> parse_hostfile(std::string_view text, const std::string& job_id, std::string_view origin);

// The allocation of the job the daemon runs inside, from its environment; no slots when
// it runs in none. `configured`: an allocation given in the settings file, which a host
// file's scheduler cannot be told from outside (an error).
Result<HostfileAllocation> find_hostfile_allocation(const HostfileScheduler& s, const std::string& configured);

// What runs a job in the allocation (pure, for tests): `plan` has the job's command,
// environment and the slots it was given (plan.pus, as slot numbers); `here` is this
// host's name.
void plan_hostfile_step(LaunchPlan& plan, const JobSpec& spec, const HostfileAllocation& alloc,
                        const HostfileScheduler& s, const std::string& here, bool as_root);

// The backend `s.backend` for the daemon of `c`, with `config` from the scheduler's
// settings file. An allocation that cannot be used is not fatal to the daemon: each job
// is told why.
Result<std::unique_ptr<Backend>> open_hostfile_steps(const BackendContext& c, const HostfileScheduler& s,
                                                     const IndirectConfig& config);

}  // namespace yard
