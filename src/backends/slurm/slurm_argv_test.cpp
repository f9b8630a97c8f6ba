#include "backends/slurm/slurm_argv.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>

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
  EXPECT_EQ(SlurmDialect().history_argv({"12_3", "5", "12_4", "13+1", "13+0"}, 0),
            (V{"sacct", "-P", "-n", "-X",
               "--format=JobID,JobIDRaw,State,ExitCode,Start,End,Elapsed,NodeList,JobName", "-j", "12,13,5"}));
}

// After a crash, a submission the live queue no longer shows is looked for by name in
// the accounting, from ten minutes before its submit time (clock skew), in local time.
TEST(SlurmArgv, FindInHistoryIsOneSacctCallByNameFromBeforeTheSubmitTime) {
  ::setenv("TZ", "UTC", 1);
  ::tzset();
  const double submit = 1795454138;  // 2026-11-23T17:15:38 UTC
  EXPECT_EQ(SlurmDialect().find_history_argv({"yard-yd00000000000000a2-b", "yard-yd00000000000000a1-a",
                                              "yard-yd00000000000000a2-b"},
                                             submit + 0.9),
            (V{"sacct", "-P", "-n", "-X", "--format=JobID,JobIDRaw,State,ExitCode,Start,End,Elapsed,NodeList,JobName",
               "--name=yard-yd00000000000000a1-a,yard-yd00000000000000a2-b", "-S", "2026-11-23T17:05:38"}));
  ::setenv("TZ", "Europe/Paris", 1);
  ::tzset();
  EXPECT_EQ(slurm_local_time(submit), "2026-11-23T18:15:38");
  ::setenv("TZ", "UTC", 1);
  ::tzset();
}

TEST(SlurmArgv, Cancel) {
  EXPECT_EQ(SlurmDialect().cancel_argv({"5", "12_3", "13+1"}), (V{"scancel", "5", "12_3", "13+1"}));
  EXPECT_EQ(SlurmDialect().cancel_pending_argv({"5"}), (V{"scancel", "--state=PENDING", "5"}));
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
