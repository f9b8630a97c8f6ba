// Direct mode on OAR (`--backend oar-steps`): when the daemon is given an OAR job as its
// allocation (oar.yaml `allocation: ID`, or the OAR_JOB_ID of the job it runs inside), a
// local scheduler sized to that job's cores runs each yard job in it, with the local
// backend's supervision and crash survival:
//   - a job runs once, as an OAR job's script does, on the host of its first core, through
//     `oarsh` (which reaches the allocation's nodes from outside the job too, given
//     OAR_JOB_ID); OAR_NODEFILE (and YARD_NODEFILE) there lists the job's own cores;
//   - `--launcher mpirun`: one mpirun here with `--host` the job's hosts and its tasks on
//     each, starting its daemons on the other hosts through oarsh (MPMD as on Slurm).
// A job cancelled or out of time here ends there too: oarsh's input stays open while the
// job runs, and a watchdog on the node kills the job's process group when it closes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/indirect_backend.h"
#include "backends/oar/oar_allocation.h"
#include "local/launch_plan.h"
#include "local/local_backend.h"

namespace yard {

inline constexpr const char* kOarStepsBackend = "oar-steps";

// The allocation the daemon is given, looked at now; `id` empty: none configured, and the
// daemon runs in no OAR job (not an error: the backend then says so to each job).
// Refused: an allocation that is not Running, or `allocation: pilot` (Slurm's only).
Result<OarAllocation> find_oar_allocation(const IndirectConfig& config, const std::string& gpu_resource,
                                          std::string& id);

// A local scheduler of the allocation's size whose launches are steps in it.
std::unique_ptr<LocalBackend> make_oar_steps(Store& store, const OarAllocation& alloc, const IndirectConfig& config,
                                             const Machine& host, const std::string& state_dir, const std::string& user);

// What runs a job in the allocation (pure, for tests): `plan` has the job's command,
// environment and the allocation's cores it was given (plan.pus, as slot numbers).
void plan_oar_step(LaunchPlan& plan, const JobSpec& spec, const OarAllocation& alloc, bool as_root);

}  // namespace yard
