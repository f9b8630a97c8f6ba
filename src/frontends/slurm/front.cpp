#include "frontends/slurm/front.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

namespace yard::slurm_front {

DaemonClient client(const std::string& command) {
  DaemonClient c(default_paths(), true);
  c.on_notice([command](const std::string& notice) { std::cerr << command << ": " << notice << std::endl; });
  return c;
}

int fail(const std::string& command, const std::string& message) {
  std::cerr << command << ": error: " << message << "\n";
  return 1;
}

std::string user_name(unsigned uid) {
  if (const passwd* pw = getpwuid(uid)) return pw->pw_name;
  return std::to_string(uid);
}

std::string user_name() { return user_name(getuid()); }

bool user_exists(const std::string& name) { return getpwnam(name.c_str()) != nullptr; }

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  std::string h = buf;
  return h.substr(0, h.find('.'));  // Slurm's node names are short
}

}  // namespace yard::slurm_front
