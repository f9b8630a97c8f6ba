#include "backends/slurm/slurm_errors.h"
#include "backends/slurm/fixtures_for_tests.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace yard {
namespace {

TEST(SlurmErrors, ControllerDownIsTransientOnRealOutput) {
  EXPECT_TRUE(slurm_transient_failure(1, slurm_fixture("sbatch_controller_down.stderr")));
  EXPECT_TRUE(slurm_transient_failure(1, slurm_fixture("squeue_controller_down.stderr")));
  EXPECT_TRUE(slurm_transient_failure(8, slurm_fixture("scancel_controller_down.stderr")));
  // Configless: no slurm.conf here, and no controller to fetch it from.
  EXPECT_TRUE(slurm_transient_failure(1, slurm_fixture("sbatch_config_unreachable.stderr")));
}

TEST(SlurmErrors, RefusalsAreNotRetried) {
  for (auto name : {"sbatch_reject_gres", "sbatch_reject_partition", "sbatch_reject_ntasks", "sbatch_reject_time"}) {
    std::string n(name);
    int rc = std::stoi(slurm_fixture(n + ".rc"));
    EXPECT_FALSE(slurm_transient_failure(rc, slurm_fixture(n + ".stderr"))) << n;
  }
}

}  // namespace
}  // namespace yard
