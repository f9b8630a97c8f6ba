// What `yard --version` reports of this build: its version, the commit it was built from
// ("-modified" when src/ had changes not committed), and how it was built. Generated at
// each build by cmake/BuildInfo.cmake.
#pragma once

namespace yard {

struct BuildInfo {
  const char* version;
  const char* commit;      // "unknown" outside a git checkout (a source tarball)
  const char* build_type;  // CMAKE_BUILD_TYPE
  const char* compiler;    // "GNU 12.2.0", "Clang 14.0.6"
  bool sanitized;          // AddressSanitizer + UndefinedBehaviorSanitizer
};

const BuildInfo& build_info();

}  // namespace yard
