// Slurm's job states (squeue %T, sacct State) in Switchyard's terms. The list is
// Slurm's "JOB STATE CODES" (squeue(1), 22.05); a state not in it is UNKNOWN with its
// raw text, never guessed.
#pragma once

#include "backends/dialect.h"

namespace yard {

MappedState map_slurm_state(const NativeStatus& s);

}  // namespace yard
