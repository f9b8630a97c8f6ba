// The OAR batch script: its #OAR directives and resource hierarchy, what it refuses
// (naming the option and the backend), and its wrapper run by bash as OAR would run it.
#include "backends/oar/oar_script.h"

#include <gtest/gtest.h>

#include "backends/script_testing.h"
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/file_text.h"

namespace yard {
namespace {

using script_testing::ctx;
using script_testing::kUid;
using script_testing::spec;

std::string script(const JobSpec& s, const OarSettings& settings = {}, const SubmitContext& c = ctx()) {
  auto r = oar_batch_script(s, c, settings);
  EXPECT_TRUE(r) << r.error();
  return r ? *r : "";
}

std::string refusal(const JobSpec& s, const SubmitContext& c = ctx(), const OarSettings& settings = {}) {
  auto r = oar_batch_script(s, c, settings);
  EXPECT_FALSE(r);
  return r ? "" : r.error();
}

bool has(const std::string& text, const std::string& line) { return text.find(line + "\n") != std::string::npos; }

TEST(OarScript, DirectivesFromTheSecondLineAsOarsubScansThem) {
  auto s = spec();
  s.res.ntasks = 2;
  s.res.cpus_per_task = 2;
  s.res.walltime_s = 3 * 3600 + 5 * 60 + 7;
  s.partition = "default";
  s.account = "melissa";
  s.array = *parse_array_spec("1-9:2");
  const auto text = script(s);
  EXPECT_EQ(text.rfind("#!/bin/bash\n#OAR -n yard-yd0123456789abcdef-train\n", 0), 0u) << text;
  EXPECT_TRUE(has(text, "#OAR -l /host=1/core=4,walltime=3:05:07")) << text;
  EXPECT_TRUE(has(text, "#OAR -O /dev/null"));
  EXPECT_TRUE(has(text, "#OAR -E /dev/null"));
  EXPECT_TRUE(has(text, "#OAR -q default"));
  EXPECT_TRUE(has(text, "#OAR --project melissa"));
  EXPECT_TRUE(has(text, "#OAR --array 5"));
  // Element k (OAR_ARRAY_INDEX, from 1) is the k-th index of the array.
  EXPECT_TRUE(has(text, "declare +x yard_array_index=$(( 1 + (OAR_ARRAY_INDEX - 1) * 2 ))")) << text;
}

TEST(OarScript, TheResourceHierarchyFromNodesGpusAndCores) {
  auto s = spec();
  EXPECT_EQ(*oar_resource_request(s, {}), "/host=1/core=1");
  s.res.nodes = 2;
  s.res.ntasks = 8;
  EXPECT_EQ(*oar_resource_request(s, {}), "/host=2/core=4");
  OarSettings g5k;
  g5k.gpu_resource = "gpu";
  g5k.host_resource = "nodes";
  s.res.gpus = 4;
  s.res.walltime_s = 59;
  EXPECT_EQ(*oar_resource_request(s, g5k), "/nodes=2/gpu=2/core=2,walltime=0:00:59");
  // Melissa's server: one host, two GPUs, a core each.
  s = spec();
  s.res.ntasks = 2;
  s.res.gpus = 2;
  g5k.host_resource = "host";
  EXPECT_EQ(*oar_resource_request(s, g5k), "/host=1/gpu=2/core=1");
}

TEST(OarScript, WhatOarCannotExpressIsRefusedNamingTheOptionAndTheBackend) {
  auto s = spec();
  s.res.gpus = 1;
  EXPECT_NE(refusal(s).find("--gpus: backend oar"), std::string::npos) << refusal(s);
  EXPECT_NE(refusal(s).find("gpu_resource"), std::string::npos);
  s = spec();
  s.qos = "high";
  EXPECT_NE(refusal(s).find("--qos: backend oar"), std::string::npos);
  s = spec();
  s.components.resize(1);
  s.components[0].res = s.res;
  EXPECT_NE(refusal(s).find("heterogeneous job components: backend oar"), std::string::npos);
  s = spec();
  s.array = *parse_array_spec("1-9%2");
  EXPECT_NE(refusal(s).find("--array %2: backend oar"), std::string::npos) << refusal(s);
  s = spec();
  s.res.nodes = 2;
  s.res.ntasks = 3;
  EXPECT_NE(refusal(s).find("spread evenly over 2 nodes"), std::string::npos) << refusal(s);
  s = spec();
  s.partition = "default -t besteffort";
  EXPECT_NE(refusal(s).find("queue (--partition) 'default -t besteffort' for backend oar"), std::string::npos)
      << refusal(s);
  s = spec();
  s.account = "-x";
  EXPECT_NE(refusal(s).find("project"), std::string::npos);
  s = spec();
  s.launcher = "mpirun";
  EXPECT_NE(refusal(s).find("--launcher mpirun: backend oar"), std::string::npos);
}

TEST(OarScript, DependenciesAreAnteriorJobsOfAfterAnyOnly) {
  auto c = ctx();
  c.dependencies = {{DependencyKind::AfterAny, "12", false}, {DependencyKind::AfterAny, "14", false}};
  const auto text = script(spec(), {}, c);
  EXPECT_TRUE(has(text, "#OAR -a 12\n#OAR -a 14")) << text;
  c.dependencies = {{DependencyKind::AfterOk, "12", false}};  // the engine holds those itself
  EXPECT_NE(refusal(spec(), c).find("--dependency"), std::string::npos);
  c.dependencies = {{DependencyKind::AfterAny, "12 -t x", false}};
  EXPECT_NE(refusal(spec(), c).find("not an OAR job id"), std::string::npos);
}

// The wrapper as OAR runs it: bash, OAR_ARRAY_INDEX set, the job's environment gone.
class OarScriptRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("yard-oar-script-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  int run(const std::string& text, const std::string& oar_index) {
    const std::string path = (dir_ / "job.sh").string();
    std::ofstream(path) << text;
    const std::string cmd = "env -i PATH=/usr/bin:/bin OAR_ARRAY_INDEX=" + oar_index +
                            " OAR_JOB_ID=7 yard_array_index=99 HOME=/nonexistent bash " + path;
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string text_of(const std::filesystem::path& p) {
    auto t = read_file(p.string());
    return t ? *t : "(" + t.error() + ")";
  }
  std::filesystem::path dir_;
};

TEST_F(OarScriptRun, AnElementGetsTheArraysOwnIndexInItsOutputAndEnvironment) {
  auto s = spec();
  s.workdir = dir_.string();
  s.argv = {"/bin/sh", "-c", "echo \"out $YARD_ARRAY_TASK_ID $SLURM_ARRAY_TASK_ID $OAR_JOB_ID $1 ${yard_array_index-unset}\"; echo err >&2",
            "sh", "it's $HOME"};
  s.array = *parse_array_spec("0,5,17");
  auto c = ctx();
  c.stdout_path = (dir_ / "o %3a.txt").string();
  c.stderr_path = (dir_ / "e%%.txt").string();
  const auto text = script(s, {}, c);
  ASSERT_EQ(run(text, "2"), 0) << text;  // the second element: index 5
  EXPECT_EQ(text_of(dir_ / "o 005.txt"), "out 5 5 7 it's $HOME unset\n");
  EXPECT_EQ(text_of(dir_ / "e%.txt"), "err\n");
  ASSERT_EQ(run(text, "3"), 0);
  EXPECT_EQ(text_of(dir_ / "o 017.txt"), "out 17 17 7 it's $HOME unset\n");
}

TEST_F(OarScriptRun, MemoryLimitsEachProcessAsGridEnginesHvmem) {
  auto s = spec();
  s.workdir = dir_.string();
  s.res.mem_bytes = 256ull << 20;
  s.argv = {"/bin/sh", "-c", "ulimit -v"};
  auto c = ctx();
  c.stdout_path = (dir_ / "mem.txt").string();
  ASSERT_EQ(run(script(s, {}, c), "1"), 0);
  EXPECT_EQ(text_of(dir_ / "mem.txt"), "262144\n");
}

}  // namespace
}  // namespace yard
