// Registers the Flux backend ("flux"), its settings in flux.yaml.
#pragma once

#include "backends/backend_registry.h"

namespace yard {

void register_flux_backend(BackendRegistry& registry);

}  // namespace yard
