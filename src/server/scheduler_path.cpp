#include "server/scheduler_path.h"

#include <filesystem>
#include <sstream>

namespace yard {

std::string path_without_front_ends(const std::string& path) {
  std::string out, dir;
  std::stringstream in(path);
  std::error_code ec;
  while (std::getline(in, dir, ':')) {
    const auto sbatch = std::filesystem::canonical(std::filesystem::path(dir.empty() ? "." : dir) / "sbatch", ec);
    if (!ec && sbatch.filename() == "yard-slurm") continue;  // yard's own front ends
    out += (out.empty() ? "" : ":") + dir;
  }
  return out;
}

}  // namespace yard
