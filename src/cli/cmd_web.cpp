// yard web ...: the web platform's program, yard-web, run with the same arguments.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <vector>

#include "cli/commands.h"

namespace yard {

int exec_beside(const char* program, int argc, char** argv) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec).parent_path();
  for (const fs::path& candidate : {self / program, self / ".." / "libexec" / "switchyard" / program}) {
    if (::access(candidate.c_str(), X_OK) != 0) continue;
    std::vector<char*> args{const_cast<char*>(program)};
    for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
    args.push_back(nullptr);
    ::execv(candidate.c_str(), args.data());
    std::cerr << "yard: cannot run " << candidate.string() << "\n";
    return 1;
  }
  std::cerr << "yard: " << program << " is not installed beside this yard (" << self.string() << ")\n";
  return 1;
}

}  // namespace yard
