#include "core/job_spec.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/output_pattern.h"

namespace yard {

JobSpec sample() {
  JobSpec s;
  s.name = "demo";
  s.argv = {"/bin/echo", "hi"};
  s.workdir = "/tmp";
  s.res.ntasks = 2;
  s.res.cpus_per_task = 3;
  s.res.mem_per_cpu_bytes = 1 << 20;
  s.dependencies = {{DependencyKind::AfterOk, 7}};
  s.array = ArraySpec{{1, 2, 3}, 2};
  return s;
}

TEST(JobSpec, ValidatesNamingTheFlag) {
  auto s = sample();
  EXPECT_TRUE(s.validate().ok());
  s.res.cpus_per_task = 0;
  auto st = s.validate();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().find("--cpus-per-task"), std::string::npos);
  s = sample();
  s.argv.clear();
  EXPECT_FALSE(s.validate().ok());
  s = sample();
  s.res.mem_bytes = 5;
  EXPECT_FALSE(s.validate().ok());
}

TEST(JobSpec, TotalsAreComputedIn64BitsAndOverflowIsRefused) {
  auto s = sample();
  s.array.reset();
  s.res.mem_per_cpu_bytes = 0;
  s.res.cpus_per_task = 2147483647;
  s.res.ntasks = 2;
  EXPECT_EQ(s.res.total_cpus(), 4294967294LL);  // was -2 in int
  EXPECT_EQ(s.total_cpus(), 4294967294LL);
  auto st = s.validate();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().find("--ntasks 2 x --cpus-per-task 2147483647 is 4294967294 CPUs"), std::string::npos)
      << st.error();
  s.res.cpus_per_task = s.res.ntasks = 65536;  // 2^32: was 0 in int
  EXPECT_EQ(s.total_cpus(), 4294967296LL);
  EXPECT_FALSE(s.validate().ok());
  s.res.cpus_per_task = s.res.ntasks = 46340;  // 2147395600 fits
  EXPECT_TRUE(s.validate().ok()) << s.validate().error();
  // Memory: --mem-per-cpu x CPUs and --mem x nodes, checked in 64 bits.
  s.res.mem_per_cpu_bytes = 1ULL << 40;  // 1T per CPU x 2147395600 CPUs
  EXPECT_FALSE(s.res.checked_total_mem_bytes().has_value());
  EXPECT_EQ(s.total_mem_bytes(), UINT64_MAX);  // saturated, never small
  st = s.validate();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().find("--mem-per-cpu"), std::string::npos) << st.error();
  s = sample();
  s.array.reset();
  s.res.mem_per_cpu_bytes = 0;
  s.res.mem_bytes = 1ULL << 62;
  s.res.nodes = 4;
  st = s.validate();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().find("--mem 4611686018427387904 bytes x --nodes 4"), std::string::npos) << st.error();
  s.res.nodes = 3;
  EXPECT_TRUE(s.validate().ok());
  // Sums over the components of a heterogeneous job.
  s = sample();
  s.array.reset();
  s.res.mem_per_cpu_bytes = 0;
  s.res.cpus_per_task = 1 << 30;
  s.res.ntasks = 1;
  Component c;
  c.res.cpus_per_task = 1 << 30;
  s.components = {c};
  EXPECT_EQ(s.total_cpus(), 1LL << 31);
  st = s.validate();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().find("more CPUs in all"), std::string::npos) << st.error();
  s.components[0].res.cpus_per_task = 1;
  s.components[0].res.gpus = 2147483647;
  s.res.gpus = 1;
  EXPECT_EQ(s.total_gpus(), 2147483648LL);
  EXPECT_FALSE(s.validate().ok());
}

TEST(JobSpec, OpenModeTravelsWithTheSpec) {
  auto s = sample();
  EXPECT_EQ(s.open_mode(), std::nullopt);
  s.set_open_mode(OpenMode::Append);
  EXPECT_EQ(nlohmann::json(s).get<JobSpec>().open_mode(), OpenMode::Append);
  s.set_open_mode(OpenMode::Truncate);
  EXPECT_EQ(nlohmann::json(s).get<JobSpec>().open_mode(), OpenMode::Truncate);
  s.set_open_mode(std::nullopt);
  EXPECT_EQ(s.env.count(kOpenModeVariable), 0u);
}

TEST(JobSpec, TotalsAndJsonRoundTrip) {
  auto s = sample();
  EXPECT_EQ(s.res.total_cpus(), 6);
  EXPECT_EQ(s.res.total_mem_bytes(), 6u << 20);
  nlohmann::json j = s;
  JobSpec back = j.get<JobSpec>();
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_EQ(back.array->max_running, 2);
  EXPECT_EQ(back.dependencies, s.dependencies);
  EXPECT_EQ(back.het_group, -1);
  s.het_group = 1;
  EXPECT_EQ(nlohmann::json(s).get<JobSpec>().het_group, 1);
}

TEST(JobSpec, HeterogeneousComponents) {
  auto s = sample();
  s.array.reset();
  s.partition = "cpu";
  Component gpu;
  gpu.partition = "gpu";
  gpu.res.gpus = 1;
  gpu.res.walltime_s = 60;
  s.components.push_back(gpu);
  ASSERT_TRUE(s.validate().ok()) << s.validate().error();
  nlohmann::json j = s;
  JobSpec back = j.get<JobSpec>();
  EXPECT_EQ(nlohmann::json(back), j);
  ASSERT_EQ(back.components.size(), 1u);
  EXPECT_EQ(back.components[0].partition, "gpu");
  EXPECT_EQ(back.components[0].res.gpus, 1);
  EXPECT_EQ(back.components[0].res.walltime_s, 60);
  // An ordinary job's JSON has no components at all.
  EXPECT_FALSE(nlohmann::json(sample()).contains("components"));

  s.components.push_back(gpu);
  s.components[1].res.cpus_per_task = 0;
  auto st = s.validate();
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error(), "component 2: --cpus-per-task must be at least 1, got 0");
  s.components.pop_back();
  s.res.ntasks = 0;
  EXPECT_EQ(s.validate().error(), "component 0: --ntasks must be at least 1, got 0");
  s.res.ntasks = 1;
  s.array = ArraySpec{{1, 2}, 0};
  EXPECT_FALSE(s.validate().ok());
}

TEST(JobSpec, MpmdAppContextsWithTheMpirunLauncher) {
  auto s = sample();
  s.array.reset();
  s.res.cpus_per_task = 1;
  s.res.ntasks = 1;
  Component b;
  b.res.ntasks = 2;
  b.argv = {"./b", "x"};
  s.components = {b};
  EXPECT_FALSE(s.validate().ok());  // a program per component needs the launcher
  s.launcher = "mpirun";
  ASSERT_TRUE(s.validate().ok()) << s.validate().error();
  EXPECT_EQ(s.total_ntasks(), 3);
  EXPECT_EQ(s.total_cpus(), 3);
  nlohmann::json j = s;
  JobSpec back = j.get<JobSpec>();
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_EQ(back.launcher, "mpirun");
  EXPECT_EQ(back.components[0].argv, (std::vector<std::string>{"./b", "x"}));
  s.components[0].argv.clear();
  EXPECT_NE(s.validate().error().find("component 1: no program"), std::string::npos);
  s.launcher = "srun";
  EXPECT_NE(s.validate().error().find("unknown launcher 'srun'"), std::string::npos);
}

TEST(OutputPattern, Expands) {
  PatternValues v{42, "demo", 40, 2, "alice", {}};
  EXPECT_EQ(expand_output_pattern("out-%j-%x-%A_%a-%u-%%-%q", v), "out-42-demo-40_2-alice-%-%q");
}

}  // namespace yard
