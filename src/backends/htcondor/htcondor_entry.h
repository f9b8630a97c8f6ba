// Registers the "htcondor" backend (backends/all_backends.cpp, generated).
#pragma once

#include "backends/backend_registry.h"

namespace yard {

void register_htcondor_backend(BackendRegistry& registry);

}  // namespace yard
