// Registers the IBM Spectrum LSF backend ("lsf"), its settings in lsf.yaml.
#pragma once

#include "backends/backend_registry.h"

namespace yard {

void register_lsf_backend(BackendRegistry& registry);

}  // namespace yard
