// A job submitted through Slurm's commands as front ends (src/frontends/slurm/) gets
// Slurm's variables (SLURM_JOB_ID, SLURM_NTASKS, ...) whatever its backend, as the tools
// that submitted it read them. The front end marks it with this variable in its spec's
// environment; the backend takes the mark out and sets the variables. Other jobs never get
// them: an MPI library that finds SLURM_JOB_ID believes it runs under Slurm.
#pragma once

namespace yard {

inline constexpr const char* kSlurmVariablesWanted = "YARD_SLURM_VARIABLES";

}  // namespace yard
