// Slurm's two backends: "slurm" (each job an sbatch job, through the indirect engine)
// and "slurm-steps" (each job an srun step of an allocation the daemon was given, or
// obtained itself as a pilot job: steps_backend.h, pilot.h). Both read slurm.yaml.
#pragma once

#include "backends/backend_registry.h"

namespace yard {

void register_slurm_backends(BackendRegistry& registry);

}  // namespace yard
