#pragma once

#include "backends/backend_registry.h"

namespace yard {

// "oar": jobs submitted to OAR with oarsub, tracked with oarstat.
void register_oar_backend(BackendRegistry& registry);

}  // namespace yard
