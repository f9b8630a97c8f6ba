#include <gtest/gtest.h>

#include "backends/backend_names.h"
#include "backends/backend_registry.h"

namespace yard {
namespace {

// A folder that registers a backend but does not name it in its CMakeLists.txt (or the
// other way round) would leave yard's --version and --backend choices wrong.
TEST(BackendNames, AreTheNamesTheRegistryHasInItsOrder) {
  const BackendRegistry registry = all_backends();
  std::vector<std::string> registered;
  for (const auto& e : registry.entries()) registered.push_back(e.name);
  EXPECT_EQ(backend_names(), registered);
  EXPECT_EQ(backend_names().front(), "local");
}

}  // namespace
}  // namespace yard
