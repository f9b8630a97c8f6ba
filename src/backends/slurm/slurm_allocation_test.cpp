#include "backends/slurm/slurm_allocation.h"
#include "backends/slurm/fixtures_for_tests.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace yard {
namespace {

TEST(SlurmAllocation, ReadsARunningTwoNodeAllocation) {
  auto a = parse_scontrol_job(slurm_fixture("scontrol_job_two_nodes.out"));
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->state, "RUNNING");
  EXPECT_EQ(a->nodes, 2);
  EXPECT_EQ(a->cpus, 8);
  EXPECT_EQ(a->mem_bytes, 4000ull << 20);
  EXPECT_EQ(a->gpus, 0);
}

TEST(SlurmAllocation, ReadsGpusFromTres) {
  auto a = parse_scontrol_job(slurm_fixture("scontrol_job_gpus.out"));
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->gpus, 2);
  EXPECT_EQ(a->mem_bytes, 2ull << 30);
}

TEST(SlurmAllocation, APendingJobIsReadWithItsState) {
  auto a = parse_scontrol_job(slurm_fixture("scontrol_job_pending.out"));
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->state, "PENDING");
}

TEST(SlurmAllocation, BadOutputIsAnErrorNamingWhatIsMissing) {
  EXPECT_FALSE(parse_scontrol_job(slurm_fixture("scontrol_job_unknown.out")));
  auto r = parse_scontrol_job("JobId=5 JobState=RUNNING NumNodes=x NumCPUs=2");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("NumNodes=x"), std::string::npos);
  auto r2 = parse_scontrol_job("JobId=5 JobState=RUNNING NumCPUs=2");
  ASSERT_FALSE(r2);
  EXPECT_NE(r2.error().find("no NumNodes="), std::string::npos);
  EXPECT_FALSE(parse_scontrol_job("JobId=5 JobState=RUNNING NumNodes=1 NumCPUs=2 TRES=mem=12XB"));
}

TEST(SlurmAllocation, StepsAskForExactlyTheJobsResources) {
  SlurmAllocation a;
  a.job_id = "42";
  JobSpec s;
  s.res.ntasks = 4;
  s.res.cpus_per_task = 2;
  s.res.mem_bytes = 3u << 30;
  s.res.gpus = 1;
  auto argv = srun_step_argv(a, s, "yard-x", {"./sim", "a b"});
  auto has = [&](const std::string& x) { return std::find(argv.begin(), argv.end(), x) != argv.end(); };
  EXPECT_EQ(argv[0], "srun");
  EXPECT_TRUE(has("--jobid=42"));
  EXPECT_TRUE(has("--exact"));
  EXPECT_TRUE(has("--ntasks=4"));
  EXPECT_TRUE(has("--cpus-per-task=2"));
  EXPECT_TRUE(has("--mem=3072M"));
  EXPECT_TRUE(has("--gres=gpu:1"));
  EXPECT_EQ(argv[argv.size() - 3], "--");
  EXPECT_EQ(argv.back(), "a b");
}

}  // namespace
}  // namespace yard
