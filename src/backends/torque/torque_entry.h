// Registers the Torque backend ("torque"), its settings in torque.yaml.
#pragma once

#include "backends/backend_registry.h"

namespace yard {

void register_torque_backend(BackendRegistry& registry);

}  // namespace yard
