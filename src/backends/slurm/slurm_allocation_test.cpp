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

// `sbatch -p cpu -N 2 -n 4 : -p gpu -n 2 --gres=gpu:2`: scontrol prints a line per
// component. Every component is read; the allocation's figures are component 0's, where
// steps run (srun --het-group=0).
TEST(SlurmAllocation, ReadsEveryComponentOfAHeterogeneousAllocation) {
  auto a = parse_scontrol_job(slurm_fixture("scontrol_job_het.out"));
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->job_id, "9");
  EXPECT_EQ(a->state, "RUNNING");
  EXPECT_EQ(a->cpus, 4);
  EXPECT_EQ(a->nodes, 2);
  EXPECT_EQ(a->gpus, 0);
  EXPECT_EQ(a->partition, "cpu");
  ASSERT_EQ(a->components.size(), 2u);
  EXPECT_EQ(a->components[0].job_id, "9");
  EXPECT_EQ(a->components[0].node_list, "c[1-2]");
  EXPECT_EQ(a->components[1].job_id, "10");
  EXPECT_EQ(a->components[1].partition, "gpu");
  EXPECT_EQ(a->components[1].cpus, 2);
  EXPECT_EQ(a->components[1].gpus, 2);
  EXPECT_EQ(a->components[1].mem_bytes, 1000ull << 20);
  EXPECT_EQ(a->components[1].node_list, "g1");
  JobSpec s;
  auto argv = srun_step_argv(*a, s, "n", {"true"});
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--het-group=0"), argv.end());
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--jobid=9"), argv.end());
  // A job that chose component 1 runs its step there, still under the allocation's id.
  s.het_group = 1;
  auto argv1 = srun_step_argv(*a, s, "n", {"true"});
  EXPECT_NE(std::find(argv1.begin(), argv1.end(), "--het-group=1"), argv1.end());
  EXPECT_NE(std::find(argv1.begin(), argv1.end(), "--jobid=9"), argv1.end());
  s.het_group = -1;
  // An ordinary allocation's steps name no group.
  auto plain = parse_scontrol_job(slurm_fixture("scontrol_job_two_nodes.out"));
  ASSERT_TRUE(plain) << plain.error();
  EXPECT_TRUE(plain->components.empty());
  auto pargv = srun_step_argv(*plain, s, "n", {"true"});
  EXPECT_EQ(std::find(pargv.begin(), pargv.end(), "--het-group=0"), pargv.end());
}

TEST(SlurmAllocation, ComponentsInAnyOrderAndTheirStateAndMismatchesAreNamed) {
  const std::string het = slurm_fixture("scontrol_job_het.out");
  const auto nl = het.find('\n');
  const std::string first = het.substr(0, nl), second = het.substr(nl + 1);
  auto swapped = parse_scontrol_job(second + "\n" + first + "\n");
  ASSERT_TRUE(swapped) << swapped.error();
  EXPECT_EQ(swapped->cpus, 4);
  EXPECT_EQ(swapped->components[1].partition, "gpu");
  std::string pending = second;
  pending.replace(pending.find("JobState=RUNNING"), 16, "JobState=PENDING");
  auto p = parse_scontrol_job(first + "\n" + pending);
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p->state, "PENDING");  // not usable until every component runs
  auto mixed = parse_scontrol_job(first + "\n" + slurm_fixture("scontrol_job_two_nodes.out"));
  ASSERT_FALSE(mixed);
  EXPECT_NE(mixed.error().find("not the components of one heterogeneous job (HetJobId 9 and missing)"),
            std::string::npos)
      << mixed.error();
  auto twice = parse_scontrol_job(first + "\n" + first);
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().find("HetJobOffset 0 is repeated"), std::string::npos) << twice.error();
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
TEST(SlurmAllocation, AJobIdThatIsNotANumberIsNamed) {
  // Found by the fuzzer: an empty JobId was taken as an allocation.
  auto a = parse_scontrol_job("JobId= JobState=RUNNING NumNodes=1 NumCPUs=2");
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().find("JobId= is not a job id"), std::string::npos) << a.error();
  EXPECT_FALSE(parse_scontrol_job("JobId=x1 JobState=RUNNING NumNodes=1 NumCPUs=2"));
  EXPECT_FALSE(parse_scontrol_job("JobId=9 HetJobId= HetJobOffset=0 JobState=RUNNING NumNodes=1 NumCPUs=2"));
}

}  // namespace yard
