// OAR's states in ours: every state of OAR 2.5.9 (Waiting, Hold, toLaunch, toError,
// toAckReservation, Launching, Running, Suspended, Resuming, Finishing, Terminated,
// Error), an Error told apart by the job's events (deleted, killed at its walltime,
// killed for a normal job as best-effort). Anything not known here is Unknown with the
// raw text kept: never taken for success.
#pragma once

#include "backends/dialect.h"

namespace yard {

MappedState map_oar_state(const NativeStatus& s);

}  // namespace yard
