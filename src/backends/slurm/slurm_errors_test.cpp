#include "backends/slurm/slurm_errors.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace yard {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream f(std::string(YARD_SLURM_FIXTURES) + "/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(SlurmErrors, ControllerDownIsTransientOnRealOutput) {
  EXPECT_TRUE(slurm_transient_failure(1, fixture("sbatch_controller_down.stderr")));
  EXPECT_TRUE(slurm_transient_failure(1, fixture("squeue_controller_down.stderr")));
  EXPECT_TRUE(slurm_transient_failure(8, fixture("scancel_controller_down.stderr")));
}

TEST(SlurmErrors, RefusalsAreNotRetried) {
  for (auto name : {"sbatch_reject_gres", "sbatch_reject_partition", "sbatch_reject_ntasks", "sbatch_reject_time"}) {
    std::string n(name);
    int rc = std::stoi(fixture(n + ".rc"));
    EXPECT_FALSE(slurm_transient_failure(rc, fixture(n + ".stderr"))) << n;
  }
}

}  // namespace
}  // namespace yard
