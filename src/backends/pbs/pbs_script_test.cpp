// The PBS Pro batch script: its #PBS directives (as `yard translate --to pbs` writes the
// job's shape), what it refuses (naming the option and the backend), and its wrapper run
// by bash as PBS would run it.
#include "backends/pbs/pbs_script.h"

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

std::string script(const JobSpec& s, const SubmitContext& c = ctx(), const PbsSettings& settings = {}) {
  auto r = pbs_batch_script(s, c, settings);
  EXPECT_TRUE(r) << r.error();
  return r ? *r : "";
}

std::string refusal(const JobSpec& s, const SubmitContext& c = ctx(), const PbsSettings& settings = {}) {
  auto r = pbs_batch_script(s, c, settings);
  EXPECT_FALSE(r);
  return r ? "" : r.error();
}

bool has(const std::string& text, const std::string& line) { return text.find(line + "\n") != std::string::npos; }

TEST(PbsScript, Directives) {
  auto s = spec();
  s.res.ntasks = 2;
  s.res.cpus_per_task = 2;
  s.res.mem_bytes = 8ull << 30;
  s.res.walltime_s = 3600;
  s.partition = "workq";
  s.account = "melissa";
  s.priority = -5;
  s.requeue = false;
  s.array = *parse_array_spec("1-9:2%3");
  const auto text = script(s);
  EXPECT_TRUE(has(text, "#PBS -N yard-yd0123456789abcdef-train")) << text;
  EXPECT_TRUE(has(text, "#PBS -o /dev/null"));
  EXPECT_TRUE(has(text, "#PBS -j oe"));
  EXPECT_TRUE(has(text, "#PBS -l select=1:ncpus=4:mpiprocs=2:mem=8gb")) << text;
  EXPECT_TRUE(has(text, "#PBS -l walltime=1:00:00")) << text;
  EXPECT_TRUE(has(text, "#PBS -q workq"));
  EXPECT_TRUE(has(text, "#PBS -A melissa"));
  EXPECT_TRUE(has(text, "#PBS -p -5"));
  EXPECT_TRUE(has(text, "#PBS -J 1-9:2%3")) << text;
  EXPECT_TRUE(has(text, "#PBS -r n"));
  EXPECT_NE(text.find("exec >'/tmp/out-'\"$(printf %01d \"$PBS_ARRAY_INDEX\")\"'.txt' 2>&1 || exit 1"), std::string::npos)
      << text;
  EXPECT_NE(text.find("export YARD_ARRAY_TASK_ID=\"$PBS_ARRAY_INDEX\""), std::string::npos);
}

TEST(PbsScript, DependenciesOnJobsAndWholeArrays) {
  auto c = ctx();
  c.dependencies = {{DependencyKind::AfterOk, "12", false},
                    {DependencyKind::AfterOk, "13", true},
                    {DependencyKind::AfterAny, "14[2]", false},
                    {DependencyKind::AfterNotOk, "15", false},
                    {DependencyKind::After, "16", false}};
  EXPECT_TRUE(has(script(spec(), c), "#PBS -W depend=afterok:12:13[],afterany:14[2],afternotok:15,after:16"))
      << script(spec(), c);
  c.dependencies = {{DependencyKind::AfterOk, "12 -N x", false}};
  EXPECT_NE(refusal(spec(), c).find("not a PBS job id"), std::string::npos);
  c.dependencies = {{DependencyKind::AfterCorr, "12", true}};
  EXPECT_NE(refusal(spec(), c).find("backend pbs"), std::string::npos);
}

TEST(PbsScript, GpusNeedTheSitesResource) {
  auto s = spec();
  s.res.gpus = 2;
  EXPECT_NE(refusal(s).find("--gpus: backend pbs"), std::string::npos) << refusal(s);
  PbsSettings site;
  site.gpu_resource = "ngpus";
  EXPECT_TRUE(has(script(s, ctx(), site), "#PBS -l select=1:ncpus=1:ngpus=2")) << script(s, ctx(), site);
  site.gpu_resource = "gpus";
  EXPECT_TRUE(has(script(s, ctx(), site), "#PBS -l select=1:ncpus=1:gpus=2")) << script(s, ctx(), site);
  EXPECT_FALSE(pbs_settings_from({{"gpu_resource", "a b"}}, "pbs.yaml"));
  EXPECT_EQ(pbs_settings_from({{"gpu_resource", "ngpus"}}, "pbs.yaml")->gpu_resource, "ngpus");
}

TEST(PbsScript, WhatPbsProCannotExpressIsRefusedNamingTheOptionAndTheBackend) {
  auto s = spec();
  s.qos = "high";
  EXPECT_NE(refusal(s).find("--qos: backend pbs"), std::string::npos);
  s = spec();
  s.components.resize(1);
  s.components[0].res = s.res;
  EXPECT_NE(refusal(s).find("heterogeneous job components: backend pbs"), std::string::npos) << refusal(s);
  s = spec();
  s.array = *parse_array_spec("1,2,5");
  EXPECT_NE(refusal(s).find("backend pbs"), std::string::npos);
  s = spec();
  s.launcher = "mpirun";
  EXPECT_NE(refusal(s).find("--launcher mpirun: backend pbs"), std::string::npos);
  auto c = ctx();
  c.uid = "x";
  EXPECT_NE(refusal(spec(), c).find("not a UID"), std::string::npos);
}

// The wrapper as PBS runs it: bash in the home directory, PBS_ARRAY_INDEX set, the
// job's environment gone.
class PbsScriptRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("yard-pbs-script-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  int run(const std::string& text, const std::string& index) {
    const std::string path = (dir_ / "job.sh").string();
    std::ofstream(path) << text;
    const std::string cmd = "cd / && env -i PATH=/usr/bin:/bin PBS_ARRAY_INDEX=" + index +
                            " PBS_JOBID='7[" + index + "].srv' HOME=/nonexistent bash " + path;
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::filesystem::path dir_;
};

TEST_F(PbsScriptRun, OutputGoesWhereYardLooksInTheJobsDirectory) {
  auto s = spec();
  s.workdir = dir_.string();
  s.argv = {"/bin/sh", "-c", "echo \"out $YARD_ARRAY_TASK_ID $PBS_JOBID $1 $(pwd)\"; echo err >&2", "sh", "it's $HOME"};
  s.array = *parse_array_spec("1-3");
  auto c = ctx();
  c.stdout_path = (dir_ / "o %3a.txt").string();
  c.stderr_path = (dir_ / "e.txt").string();
  auto text = pbs_batch_script(s, c, {});
  ASSERT_TRUE(text) << text.error();
  ASSERT_EQ(run(*text, "2"), 0);
  auto out = read_file((dir_ / "o 002.txt").string());
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(*out, "out 2 7[2].srv it's $HOME " + dir_.string() + "\n");
  EXPECT_EQ(*read_file((dir_ / "e.txt").string()), "err\n");
}

}  // namespace
}  // namespace yard
