// Torque 6's states in Switchyard's terms (qstat.1, pbs_job.h's JOB_EXEC_* codes).
#pragma once

#include "backends/dialect.h"

namespace yard {

// job_state: Q, H, W, T pending; R, E (exiting) running, S suspended; C ended, told apart
// by exit_status (0 completed; 1-255 the job's failure; 256+N killed by signal N, a
// SIGTERM after using its whole walltime being the walltime kill of older servers;
// negative: Torque's own: -11 walltime (not PBS Pro's -11), -10 memory, -12 CPU time,
// -1 to -9 and -13 a start that failed) and the comment (a dependent the server deleted
// because its dependency can never be met; one that never ran, without an exit_status,
// was deleted). Anything else: Unknown, the raw text kept.
MappedState map_torque_state(const NativeStatus& s);

}  // namespace yard
