// Registers the PBS Pro / OpenPBS backend ("pbs"), its settings in pbs.yaml.
#pragma once

#include "backends/backend_registry.h"

namespace yard {

void register_pbs_backend(BackendRegistry& registry);

}  // namespace yard
