#include "client/daemon_program.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace yard {
namespace {

bool executable(const std::string& path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

}  // namespace

std::string daemon_program() {
  if (const char* set = std::getenv("YARD_DAEMON"); set && *set) return set;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::string beside = (self.parent_path() / "yardd").string();
    if (executable(beside)) return beside;
  }
#ifdef YARD_INSTALLED_DAEMON
  if (executable(YARD_INSTALLED_DAEMON)) return YARD_INSTALLED_DAEMON;
#endif
  return "yardd";
}

}  // namespace yard
