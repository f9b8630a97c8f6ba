// Flux's job states in Switchyard's terms (flux-jobs(1) "JOB STATUS", RFC 21): the
// state, and once INACTIVE the result and the exception that ended the job.
#pragma once

#include "backends/dialect.h"

namespace yard {

// NEW, DEPEND, PRIORITY, SCHED pending; RUN and CLEANUP running (CLEANUP is not the
// end); INACTIVE by result: COMPLETED, TIMEOUT, CANCELED, and FAILED by its exception
// (dependency: it can never run; node-failure; oom (UNVERIFIED type); any other, or
// none, a failure with its exit code or signal). Anything else is UNKNOWN, kept raw.
MappedState map_flux_state(const NativeStatus& s);

}  // namespace yard
