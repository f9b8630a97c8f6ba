// yard --version [--json]: what this build is, and what it can do.
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/backend_names.h"
#include "cli/build_info.h"
#include "cli/commands.h"

namespace yard {

int print_version(bool json) {
  const BuildInfo& b = build_info();
  const std::vector<std::string>& backends = backend_names();
  // Features this build has beyond running jobs (the web service and the Python module
  // are added here as they arrive).
  std::vector<std::string> features{"sim", "run"};
  if (b.sanitized) features.push_back("sanitizers");
  if (json) {
    std::cout << nlohmann::json{{"version", b.version},       {"commit", b.commit},     {"build_type", b.build_type},
                                {"compiler", b.compiler},     {"backends", backends}, {"features", features}}
                     .dump()
              << "\n";
    return 0;
  }
  auto joined = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  std::cout << "yard " << b.version << " (commit " << b.commit << ")\n"
            << "build: " << (*b.build_type ? b.build_type : "unspecified") << ", " << b.compiler << "\n"
            << "backends: " << joined(backends) << "\n"
            << "features: " << joined(features) << "\n";
  return 0;
}

}  // namespace yard
