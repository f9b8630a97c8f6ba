// The names of the backends this build has, without the backends: for programs that only
// name them (yard --version, the choices of yard submit --backend). The daemon opens them
// from the registry (backend_registry.h), whose names these are, in its order.
#pragma once

#include <string>
#include <vector>

namespace yard {

const std::vector<std::string>& backend_names();

}  // namespace yard
