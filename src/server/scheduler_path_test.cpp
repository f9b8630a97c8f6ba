// The daemon's PATH loses the folders of yard's own Slurm commands, and only those.
#include "server/scheduler_path.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace yard {
namespace {

namespace fs = std::filesystem;

TEST(SchedulerPath, FoldersWhoseSbatchIsYardsFrontEndAreLeftOut) {
  const fs::path root = fs::temp_directory_path() / ("yard-path-" + std::to_string(::getpid()));
  fs::create_directories(root / "front" / "slurm-commands");
  fs::create_directories(root / "real");
  std::ofstream(root / "front" / "yard-slurm") << "#!/bin/sh\n";
  fs::create_symlink("../yard-slurm", root / "front" / "slurm-commands" / "sbatch");
  std::ofstream(root / "real" / "sbatch") << "#!/bin/sh\n";  // a real Slurm's, kept
  const std::string front = (root / "front" / "slurm-commands").string(), real = (root / "real").string();
  EXPECT_EQ(path_without_front_ends(front + ":" + real + ":/usr/bin"), real + ":/usr/bin");
  EXPECT_EQ(path_without_front_ends(real + ":" + front), real);
  EXPECT_EQ(path_without_front_ends("/usr/bin:/bin"), "/usr/bin:/bin");
  fs::remove_all(root);
}

}  // namespace
}  // namespace yard
