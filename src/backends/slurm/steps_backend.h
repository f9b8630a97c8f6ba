// Direct mode on Slurm (`--backend slurm-steps`): when the daemon is given an allocation
// (slurm.yaml `allocation:`, or the SLURM_JOB_ID of an allocation it runs inside), a
// second local scheduler is sized to that allocation and runs each job as an `srun`
// step in it, with the local backend's supervision and crash survival.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/indirect_backend.h"
#include "backends/slurm/slurm_allocation.h"
#include "local/local_backend.h"
#include "backends/slurm/pilot.h"

namespace yard {

inline constexpr const char* kSlurmStepsBackend = "slurm-steps";

// The steps backends: one for an ordinary allocation, one per component of a
// heterogeneous one (each sized to its component; a job picks one with --het-group,
// default 0).
using StepsBackends = std::vector<std::unique_ptr<LocalBackend>>;

// Empty when no allocation is configured; also empty, with the reason in `problem`, when
// the allocation cannot be read or is not running.
StepsBackends open_slurm_steps(Store& store, const IndirectConfig& config, const Machine& host,
                                               const std::string& state_dir, const std::string& user,
                                               std::string& problem);

// With `allocation: pilot`: sized as the pilot asks; its steps start once the pilot runs
// (the daemon plans them only while `pilot.ready()`).
std::unique_ptr<LocalBackend> open_slurm_pilot_steps(Store& store, const IndirectConfig& config, const Machine& host,
                                                     const std::string& state_dir, const std::string& user,
                                                     const Pilot& pilot);

// A steps backend: a local scheduler of size `m` whose launches are steps of the
// allocation `*alloc` (read at each launch: a pilot's is filled in once it runs); with
// `component` >= 0, of that component of a heterogeneous allocation only.
std::unique_ptr<LocalBackend> make_slurm_steps(Store& store, Machine m, const std::string& state_dir,
                                               const std::string& user, std::shared_ptr<const SlurmAllocation> alloc,
                                               int component = -1);

}  // namespace yard
