// PBS Pro / OpenPBS states in Switchyard's terms (pbs_job_attributes.7B,
// job.h's JOB_EXEC_* codes).
#pragma once

#include "backends/dialect.h"

namespace yard {

// job_state: Q, H, W, T pending (H with substate 22: on its dependencies); R, E (exiting,
// its end not yet recorded), B (an array begun), S and U (suspended) running; F and X
// (a subjob) ended, told apart by Exit_status (0 completed, 1-255 the job's failure,
// 256+N killed by signal N, negative: PBS's own: -29 walltime, -27/-26 memory, -28 CPU
// time, -20/-11 its node lost), the comment ("exceeded resource walltime", "terminated",
// a dependent deleted with its dependency) and substate (91 deleted); a kill by SIGTERM
// after using its whole walltime is the older servers' walltime kill (Exit_status 271).
// M (moved to another server) and anything else: Unknown, the raw text kept.
MappedState map_pbs_state(const NativeStatus& s);

}  // namespace yard
