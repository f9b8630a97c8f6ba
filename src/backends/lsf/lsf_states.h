// LSF's job states in Switchyard's terms (bjobs(1), lsf's TERM_* exit reasons).
#pragma once

#include "backends/dialect.h"

namespace yard {

// PEND, PSUSP (held), WAIT (a chunk's), PROV (provisioning) pending (a pending reason
// saying its dependency can never be met: DependencyNeverSatisfied, which the engine
// cancels); RUN running, USUSP and SSUSP suspended; DONE and PDONE completed; PERR (a
// post-execution failure) failed; EXIT by its TERM_* exit reason: RUNLIMIT, DEADLINE,
// CPULIMIT a time limit; MEMLIMIT, SWAP memory; OWNER, ADMIN (and FORCE_) cancelled;
// PREEMPT failed "preempted"; ZOMBIE, REMOVE_HUNG_JOB, ORPHAN_SYSTEM a node lost;
// REQUEUE_* pending again; else failed with its exit code or signal. UNKWN and ZOMBI:
// Unknown (not an end: LSF may find the job again). Anything else: Unknown, raw text kept.
MappedState map_lsf_state(const NativeStatus& s);

}  // namespace yard
