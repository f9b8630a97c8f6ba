// The Grid Engine batch script: its #$ directives, what it refuses (naming the option
// and the backend), and its wrapper run by bash as Grid Engine would run it.
#include "backends/sge/sge_script.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/file_text.h"

namespace yard {
namespace {

std::string text_of(const std::filesystem::path& p) {
  auto t = read_file(p.string());
  return t ? *t : "(" + t.error() + ")";
}

const char* kUid = "yd0123456789abcdef";

JobSpec spec() {
  JobSpec s;
  s.name = "train";
  s.argv = {"/bin/echo", "hi"};
  s.workdir = "/tmp";
  return s;
}

SubmitContext ctx() {
  SubmitContext c;
  c.uid = kUid;
  c.stdout_path = "/tmp/out-%a.txt";
  return c;
}

std::string script(const JobSpec& s, const SgeSettings& settings = {}) {
  auto r = sge_batch_script(s, ctx(), settings);
  EXPECT_TRUE(r) << r.error();
  return r ? *r : "";
}

std::string refusal(const JobSpec& s, const SubmitContext& c = ctx(), const SgeSettings& settings = {}) {
  auto r = sge_batch_script(s, c, settings);
  EXPECT_FALSE(r);
  return r ? "" : r.error();
}

bool has(const std::string& text, const std::string& line) { return text.find(line + "\n") != std::string::npos; }

TEST(SgeScript, Directives) {
  auto s = spec();
  s.res.ntasks = 2;
  s.res.cpus_per_task = 2;
  s.res.mem_bytes = 8ull << 30;
  s.res.walltime_s = 3600;
  s.partition = "all.q@vm";
  s.account = "melissa";
  s.priority = -5;
  s.array = *parse_array_spec("1-9:2%3");
  const auto text = script(s);
  EXPECT_TRUE(has(text, "#$ -N yard-yd0123456789abcdef-train")) << text;
  EXPECT_TRUE(has(text, "#$ -S /bin/bash"));
  EXPECT_TRUE(has(text, "#$ -o /dev/null"));
  EXPECT_TRUE(has(text, "#$ -pe mpi 4"));  // tasks: the multi-node environment, as translate writes it
  EXPECT_TRUE(has(text, "#$ -l h_vmem=2G")) << text;  // 8 GiB over 4 slots
  EXPECT_TRUE(has(text, "#$ -l h_rt=1:00:00")) << text;
  EXPECT_TRUE(has(text, "#$ -q all.q@vm"));
  EXPECT_TRUE(has(text, "#$ -P melissa"));
  EXPECT_TRUE(has(text, "#$ -p -5"));
  EXPECT_TRUE(has(text, "#$ -t 1-9:2"));
  EXPECT_TRUE(has(text, "#$ -tc 3"));
  // The wrapper opens the output itself, the index from Grid Engine's task id.
  EXPECT_NE(text.find("exec >'/tmp/out-'\"$(printf %01d \"$SGE_TASK_ID\")\"'.txt' 2>&1 || exit 1"), std::string::npos)
      << text;
  EXPECT_NE(text.find("export YARD_ARRAY_TASK_ID=\"$SGE_TASK_ID\""), std::string::npos);
}

TEST(SgeScript, OneSlotNeedsNoParallelEnvironmentAndSeveralNodesUseTheMultiNodeOne) {
  EXPECT_EQ(script(spec()).find("-pe "), std::string::npos);
  auto s = spec();
  s.res.nodes = 2;
  s.res.ntasks = 8;
  s.res.mem_per_cpu_bytes = 1ull << 30;
  const auto text = script(s);
  EXPECT_TRUE(has(text, "#$ -pe mpi 8")) << text;
  EXPECT_TRUE(has(text, "#$ -l h_vmem=1G")) << text;
}

TEST(SgeScript, GpusNeedTheSitesComplex) {
  auto s = spec();
  s.res.gpus = 2;
  EXPECT_NE(refusal(s).find("--gpus 2: backend sge"), std::string::npos) << refusal(s);
  SgeSettings site;
  site.gpu_resource = "gpu";
  EXPECT_TRUE(has(script(s, site), "#$ -l gpu=2"));
}

TEST(SgeScript, DependenciesAreHoldJidOfAfterAnyOnly) {
  auto c = ctx();
  c.dependencies = {{DependencyKind::AfterAny, "12", false}, {DependencyKind::AfterAny, "14", false}};
  auto r = sge_batch_script(spec(), c, {});
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(has(*r, "#$ -hold_jid 12,14"));
  c.dependencies = {{DependencyKind::AfterOk, "12", false}};  // the engine holds those itself
  EXPECT_NE(refusal(spec(), c).find("--dependency"), std::string::npos);
  c.dependencies = {{DependencyKind::AfterAny, "12 -N x", false}};
  EXPECT_NE(refusal(spec(), c).find("not a Grid Engine job id"), std::string::npos);
}

TEST(SgeScript, WhatGridEngineCannotExpressIsRefusedNamingTheOptionAndTheBackend) {
  auto s = spec();
  s.qos = "high";
  EXPECT_NE(refusal(s).find("--qos: backend sge"), std::string::npos);
  s = spec();
  s.components.resize(1);
  s.components[0].res = s.res;
  EXPECT_NE(refusal(s).find("heterogeneous job components: backend sge"), std::string::npos) << refusal(s);
  s = spec();
  s.array = *parse_array_spec("0-3");
  EXPECT_NE(refusal(s).find("from 1"), std::string::npos);
  s.array = *parse_array_spec("1,2,5");
  EXPECT_NE(refusal(s).find("one range"), std::string::npos);
  s = spec();
  s.partition = "all.q -l h_rt=1";
  EXPECT_NE(refusal(s).find("queue 'all.q -l h_rt=1': backend sge"), std::string::npos) << refusal(s);
  s = spec();
  s.account = "-x";
  EXPECT_NE(refusal(s).find("project"), std::string::npos);
  s = spec();
  s.res.cpus_per_task = 4;
  SgeSettings none;
  none.pe_single_node = "";
  EXPECT_NE(refusal(s, ctx(), none).find("pe_single_node"), std::string::npos);
  s = spec();
  s.res.ntasks = 4;
  none = {};
  none.pe_multi_node = "";
  EXPECT_NE(refusal(s, ctx(), none).find("--ntasks 4: backend sge cannot run this job: no parallel environment is set "
                                         "for jobs of several tasks or nodes (pe_multi_node in sge.yaml)"),
            std::string::npos)
      << refusal(s, ctx(), none);
}

// The wrapper as Grid Engine runs it: bash, SGE_TASK_ID set, the job's environment gone.
class SgeScriptRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("yard-sge-script-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  int run(const std::string& text, const std::string& task) {
    const std::string path = (dir_ / "job.sh").string();
    std::ofstream(path) << text;
    const std::string cmd = "env -i PATH=/usr/bin:/bin SGE_TASK_ID=" + task + " JOB_ID=7 HOME=/nonexistent bash " + path;
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::filesystem::path dir_;
};

TEST_F(SgeScriptRun, OutputGoesWhereYardLooksPaddedAppendedOrSeparate) {
  auto s = spec();
  s.workdir = dir_.string();
  s.argv = {"/bin/sh", "-c", "echo \"out $YARD_ARRAY_TASK_ID $JOB_ID $1\"; echo err >&2", "sh", "it's $HOME"};
  s.array = *parse_array_spec("1-3");
  auto c = ctx();
  c.stdout_path = (dir_ / "o %3a.txt").string();
  c.stderr_path = (dir_ / "e%%.txt").string();
  auto text = sge_batch_script(s, c, {});
  ASSERT_TRUE(text) << text.error();
  ASSERT_EQ(run(*text, "2"), 0);
  EXPECT_EQ(text_of(dir_ / "o 002.txt"), "out 2 7 it's $HOME\n");
  EXPECT_EQ(text_of(dir_ / "e%.txt"), "err\n");
  // Appended when asked; truncated by default.
  s.env[kOpenModeVariable] = "append";
  text = sge_batch_script(s, c, {});
  ASSERT_EQ(run(*text, "2"), 0);
  EXPECT_EQ(text_of(dir_ / "o 002.txt"), "out 2 7 it's $HOME\nout 2 7 it's $HOME\n");
  // A directory that is not there: the job fails rather than writing elsewhere.
  c.stdout_path = (dir_ / "missing" / "o.txt").string();
  text = sge_batch_script(s, c, {});
  EXPECT_EQ(run(*text, "2"), 1);
}

}  // namespace
}  // namespace yard
