// The local machine's scheduler as a backend ("local", the default): the embedded
// scheduler of src/local/ with its job host.
#pragma once

#include "backends/backend_registry.h"

namespace yard {

void register_local_backend(BackendRegistry& registry);

}  // namespace yard
