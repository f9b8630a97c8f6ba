// Direct mode on Slurm (`--backend slurm-steps`): when the daemon is given an allocation
// (slurm.yaml `allocation:`, or the SLURM_JOB_ID of an allocation it runs inside), a
// second local scheduler is sized to that allocation and runs each job as an `srun`
// step in it, with the local backend's supervision and crash survival.
#pragma once

#include <memory>
#include <string>

#include "backends/indirect_backend.h"
#include "local/local_backend.h"

namespace yard {

inline constexpr const char* kSlurmStepsBackend = "slurm-steps";

// Null when no allocation is configured; also null, with the reason in `problem`, when
// the allocation cannot be read or is not running.
std::unique_ptr<LocalBackend> open_slurm_steps(Store& store, const IndirectConfig& config, const Machine& host,
                                               const std::string& state_dir, const std::string& user,
                                               std::string& problem);

}  // namespace yard
