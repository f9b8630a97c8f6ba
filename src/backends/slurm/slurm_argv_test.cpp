#include "backends/slurm/slurm_argv.h"

#include <gtest/gtest.h>

#include "backends/slurm/slurm_dialect.h"

namespace yard {
namespace {

using V = std::vector<std::string>;

TEST(SlurmArgv, Submit) { EXPECT_EQ(SlurmDialect().submit_argv("/s/job.sh"), (V{"sbatch", "--parsable", "/s/job.sh"})); }

TEST(SlurmArgv, PollIsOneCallWhateverTheIds) {
  SlurmDialect d;
  const V expected{"squeue", "--me", "-h", "-r", "-t", "all", "-o", "%i|%T|%r|%j"};
  EXPECT_EQ(d.poll_argv({}), expected);
  EXPECT_EQ(d.poll_argv({"1", "2_3", "999999"}), expected);
  EXPECT_EQ(d.find_argv(), expected);
}

TEST(SlurmArgv, HistoryAsksForWholeJobs) {
  EXPECT_EQ(SlurmDialect().history_argv({"12_3", "5", "12_4", "13+1", "13+0"}),
            (V{"sacct", "-P", "-n", "-X",
               "--format=JobID,JobIDRaw,State,ExitCode,Start,End,Elapsed,NodeList,JobName", "-j", "12,13,5"}));
}

TEST(SlurmArgv, Cancel) {
  EXPECT_EQ(SlurmDialect().cancel_argv({"5", "12_3", "13+1"}), (V{"scancel", "5", "12_3", "13+1"}));
}

TEST(SlurmArgv, BaseId) {
  EXPECT_EQ(slurm_base_id("12"), "12");
  EXPECT_EQ(slurm_base_id("12_3"), "12");
  EXPECT_EQ(slurm_base_id("12_[0-3]"), "12");
  EXPECT_EQ(slurm_base_id("12+1"), "12");
}

TEST(SlurmArgv, DialectName) { EXPECT_EQ(SlurmDialect().name(), "slurm"); }

}  // namespace
}  // namespace yard
