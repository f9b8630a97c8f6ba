// Grid Engine's states in ours: qstat's letter codes for jobs in the queue, qacct's
// failure codes for jobs that left it. Anything not known here is Unknown with the raw
// text kept: never taken for success.
#pragma once

#include "backends/dialect.h"

namespace yard {

MappedState map_sge_state(const NativeStatus& s);

}  // namespace yard
