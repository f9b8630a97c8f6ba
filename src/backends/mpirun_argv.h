// MPMD through mpirun (`--launcher mpirun`, Melissa's slurm-openmpi, and mpirun with an
// allocation's hosts): one mpirun whose app contexts are the job's command with its
// tasks, then each component's program with its tasks: mpirun -np 1 ./a : -np 2 ./b (one
// MPI world, app numbers 0, 1, ...). The steps backends add where mpirun finds the hosts.
#pragma once

#include <string>
#include <vector>

#include "core/job_spec.h"

namespace yard {

std::vector<std::string> mpirun_mpmd_argv(const JobSpec& spec);

}  // namespace yard
