#include "local/launch_plan.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace yard {
namespace {

bool has(const std::vector<std::string>& env, const std::string& kv) {
  return std::find(env.begin(), env.end(), kv) != env.end();
}
bool has_name(const std::vector<std::string>& env, const std::string& name) {
  return std::any_of(env.begin(), env.end(), [&](auto& e) { return e.rfind(name + "=", 0) == 0; });
}

TEST(LaunchPlan, ArrayElementEnvironmentWithoutSlurmStepVariables) {
  JobSpec s;
  s.name = "arr";
  s.argv = {"env"};
  s.workdir = "/work";
  s.env = {{"PATH", "/bin"}, {"SLURM_JOB_ID", "77"}, {"SLURM_NODELIST", "n1"}, {"PMI_RANK", "0"}};
  Machine m;
  m.cpus = 4;
  m.gpus = 2;
  m.pus = {0, 1};
  Allocation a{{2, 3}, {1}, 0};
  auto p = make_launch_plan(s, JobIdentity{12, "ydx", 10, 3}, a, m, "/s.sh", "alice");
  EXPECT_TRUE(has(p.env, "YARD_ARRAY_TASK_ID=3"));
  EXPECT_TRUE(has(p.env, "SLURM_ARRAY_TASK_ID=3"));
  EXPECT_TRUE(has(p.env, "YARD_JOB_ID=12"));
  EXPECT_TRUE(has(p.env, "CUDA_VISIBLE_DEVICES=1"));
  EXPECT_TRUE(has(p.env, "PATH=/bin"));
  EXPECT_FALSE(has_name(p.env, "SLURM_JOB_ID"));
  EXPECT_FALSE(has_name(p.env, "SLURM_NODELIST"));
  EXPECT_FALSE(has_name(p.env, "PMI_RANK"));
  EXPECT_EQ(p.stdout_path, "/work/yard-10_3.out");
  EXPECT_EQ(p.stderr_path, p.stdout_path);
  EXPECT_EQ(p.pus, (std::vector<int>{0, 1}));  // 4 declared CPUs pinned round-robin on 2 PUs
}

TEST(LaunchPlan, YardsOwnVariablesWinOverTheJobsOnceEachAndTheEnvironmentStaysSorted) {
  JobSpec s;
  s.name = "own";
  s.argv = {"env"};
  s.workdir = "/work";
  s.env = {{"A", "1"}, {"YARD_JOB_ID", "stale"}, {"YARD_SLURM_VARIABLES", "1"}, {"ZZ", "z"}, {"SLURM_JOB_ID", "9"}};
  Machine m;
  m.cpus = 2;
  m.pus = {0, 1};
  m.hostname = "node1";
  Allocation a{{0}, {}, 0};
  auto p = make_launch_plan(s, JobIdentity{5, "ydx", std::nullopt, std::nullopt}, a, m, "/s.sh", "alice");
  EXPECT_TRUE(has(p.env, "A=1"));
  EXPECT_TRUE(has(p.env, "ZZ=z"));
  EXPECT_TRUE(has(p.env, "YARD_JOB_ID=5"));
  EXPECT_EQ(std::count_if(p.env.begin(), p.env.end(), [](auto& e) { return e.rfind("YARD_JOB_ID=", 0) == 0; }), 1);
  EXPECT_FALSE(has_name(p.env, "YARD_SLURM_VARIABLES"));  // the mark asks for Slurm's, which are set
  EXPECT_TRUE(has(p.env, "SLURM_JOB_ID=5"));
  EXPECT_TRUE(std::is_sorted(p.env.begin(), p.env.end(), [](const std::string& x, const std::string& y) {
    return x.substr(0, x.find('=')) < y.substr(0, y.find('='));
  }));
}

TEST(LaunchPlan, ScriptsRunDirectlyOrUnderSh) {
  JobSpec s;
  s.script = "#!/bin/bash\necho hi\n";
  s.argv = {"a1"};
  s.workdir = "/w";
  s.stdout_path = "out/%x-%j.log";
  s.stderr_path = "/abs/err-%j";
  s.name = "n";
  auto p = make_launch_plan(s, JobIdentity{5, "u", {}, {}}, Allocation{}, Machine{}, "/st/5.sh", "bob");
  EXPECT_EQ(p.argv, (std::vector<std::string>{"/st/5.sh", "a1"}));
  EXPECT_EQ(p.stdout_path, "/w/out/n-5.log");
  EXPECT_EQ(p.stderr_path, "/abs/err-5");
  s.script = "echo no shebang\n";
  p = make_launch_plan(s, JobIdentity{5, "u", {}, {}}, Allocation{}, Machine{}, "/st/5.sh", "bob");
  EXPECT_EQ(p.argv[0], "/bin/sh");
}

TEST(LaunchPlan, OutputPatternsAndOpenMode) {
  JobSpec s;
  s.name = "sweep";
  s.argv = {"true"};
  s.workdir = "/w";
  s.stdout_path = "%x_%3j_%03a_%N_%n_%t_%s.out";
  Machine m;
  m.hostname = "node7";
  auto p = make_launch_plan(s, JobIdentity{12, "u", 10, 3}, Allocation{}, m, "", "bob");
  EXPECT_EQ(p.stdout_path, "/w/sweep_012_003_node7_0_0_batch.out");
  EXPECT_FALSE(p.append_output);  // truncated, as sbatch's default
  s.set_open_mode(OpenMode::Append);
  p = make_launch_plan(s, JobIdentity{12, "u", 10, 3}, Allocation{}, m, "", "bob");
  EXPECT_TRUE(p.append_output);
  EXPECT_FALSE(has_name(p.env, kOpenModeVariable));  // the spec's setting, not the job's
  EXPECT_FALSE(Machine{}.hostname.empty());
  EXPECT_EQ(Machine{}.hostname.find('.'), std::string::npos);
}

}  // namespace
}  // namespace yard
