#pragma once

#include "backends/backend_registry.h"

namespace yard {

// "sge": jobs submitted to Grid Engine with qsub, tracked with qstat and qacct.
void register_sge_backend(BackendRegistry& registry);

}  // namespace yard
