// yard slurm-commands env|path: where Slurm's commands as front ends to yard are
// (src/frontends/slurm/: sbatch, squeue, sacct, scancel, scontrol, sinfo, sacctmgr, srun),
// and the line that puts them first on PATH: eval "$(yard slurm-commands env)". A real
// Slurm already on PATH is never hidden unless asked (--replace).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/commands.h"

namespace yard {
namespace {

namespace fs = std::filesystem;

// Beside yard in a build tree; under libexec once installed.
std::string commands_dir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec).parent_path();
  for (const fs::path& dir : {self / "slurm-commands", self / ".." / "libexec" / "switchyard" / "slurm-commands"})
    if (fs::exists(dir / "sbatch", ec)) return fs::weakly_canonical(dir, ec).string();
  return "";
}

// The first sbatch on PATH that is not ours.
std::string real_slurm(const std::string& ours) {
  const char* path = std::getenv("PATH");
  std::stringstream in(path ? path : "");
  std::string dir;
  std::error_code ec;
  while (std::getline(in, dir, ':')) {
    if (dir.empty() || fs::weakly_canonical(dir, ec).string() == ours) continue;
    const std::string candidate = dir + "/sbatch";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// The folder, or "" after saying it is missing (rc 1).
std::string commands_dir_or_say(int& rc) {
  std::string dir = commands_dir();
  if (dir.empty()) {
    std::cerr << "yard slurm-commands: the commands are not installed beside this yard\n";
    rc = 1;
  }
  return dir;
}

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

void add_slurm_commands_command(CLI::App& app, int& rc) {
  auto* sub = app.add_subcommand("slurm-commands",
                                 "Slurm's commands (sbatch, squeue, sacct, scancel, scontrol, sinfo, sacctmgr, srun) "
                                 "as front ends to yard, for any backend: eval \"$(yard slurm-commands env)\"");
  sub->require_subcommand(1);
  static bool replace = false;
  auto* env = sub->add_subcommand("env", "Print the shell line that puts them first on PATH (refused where a real "
                                         "Slurm is on PATH, unless --replace)");
  env->add_flag("--replace", replace, "Put them first even where a real Slurm's commands are on PATH");
  env->callback([&rc] {
    const std::string dir = commands_dir_or_say(rc);
    if (dir.empty()) return;
    if (const std::string real = real_slurm(dir); !real.empty() && !replace) {
      std::cerr << "yard slurm-commands: a real Slurm is on PATH (" << real
                << "): yard's commands would hide it; give --replace to put them first anyway\n";
      rc = 1;
      return;
    }
    std::cout << "export PATH=" << shell_quoted(dir) << "\":$PATH\"\n";
  });
  auto* path = sub->add_subcommand("path", "Print the folder that holds them");
  path->callback([&rc] {
    const std::string dir = commands_dir_or_say(rc);
    if (!dir.empty()) std::cout << dir << "\n";
  });
}

}  // namespace yard
