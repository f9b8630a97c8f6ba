#include "backends/slurm/slurm_allocation.h"
#include "backends/slurm/fixtures_for_tests.h"

#include <gtest/gtest.h>

#include <algorithm>
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

TEST(SlurmAllocation, MpmdIsOneMpirunWithAnAppContextPerComponent) {
  auto a = parse_scontrol_job(slurm_fixture("scontrol_job_two_nodes.out"));
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->node_list, "c[1-2]");
  JobSpec s;
  s.launcher = "mpirun";
  s.argv = {"./a", "x y"};
  Component b;
  b.res.ntasks = 2;
  b.argv = {"./b"};
  s.components = {b};
  EXPECT_EQ(mpirun_mpmd_argv(s), (std::vector<std::string>{"mpirun", "-np", "1", "./a", "x y", ":", "-np", "2", "./b"}));
  auto env = mpirun_environment(*a, s, "yard-u1-my job", true);
  auto has = [&](const std::string& x) { return std::find(env.begin(), env.end(), x) != env.end(); };
  EXPECT_TRUE(has("SLURM_JOB_ID=" + a->job_id));
  EXPECT_TRUE(has("SLURM_NODELIST=c[1-2]"));
  EXPECT_TRUE(has("SLURM_TASKS_PER_NODE=4(x2)"));
  EXPECT_TRUE(has("OMPI_MCA_plm_slurm_args=--exact --cpus-per-task=2 --job-name=yard-u1-my_job"));
  EXPECT_TRUE(has("OMPI_ALLOW_RUN_AS_ROOT=1"));
  EXPECT_EQ(mpirun_environment(*a, s, "n", false).size(), env.size() - 2);
  a->cpus = 9;
  EXPECT_TRUE([&] {
    for (auto& e : mpirun_environment(*a, s, "n", false))
      if (e == "SLURM_TASKS_PER_NODE=5(x1),4(x1)") return true;
    return false;
  }());
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
