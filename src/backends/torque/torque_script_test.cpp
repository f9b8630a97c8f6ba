// The Torque batch script: its #PBS directives in Torque's resources, dependencies on
// jobs and whole arrays, and what it refuses, naming the option and the backend.
#include "backends/torque/torque_script.h"

#include <gtest/gtest.h>

#include "backends/script_testing.h"

namespace yard {
namespace {

using script_testing::ctx;
using script_testing::kUid;
using script_testing::spec;

std::string script(const JobSpec& s, const SubmitContext& c = ctx(), const TorqueSettings& settings = {}) {
  auto r = torque_batch_script(s, c, settings);
  EXPECT_TRUE(r) << r.error();
  return r ? *r : "";
}

std::string refusal(const JobSpec& s, const SubmitContext& c = ctx(), const TorqueSettings& settings = {}) {
  auto r = torque_batch_script(s, c, settings);
  EXPECT_FALSE(r);
  return r ? "" : r.error();
}

bool has(const std::string& text, const std::string& line) { return text.find(line + "\n") != std::string::npos; }

TEST(TorqueScript, Directives) {
  auto s = spec();
  s.res.cpus_per_task = 4;  // one task of 4 CPUs: ppn=4, said so
  s.res.mem_bytes = 8ull << 30;
  s.res.walltime_s = 90;
  s.partition = "batch";
  s.array = *parse_array_spec("1-3,6,9%2");
  const auto text = script(s);
  EXPECT_TRUE(has(text, "#PBS -N yard-yd0123456789abcdef-train")) << text;
  EXPECT_TRUE(has(text, "#PBS -o /dev/null"));
  EXPECT_TRUE(has(text, "#PBS -j oe"));
  EXPECT_TRUE(has(text, "#PBS -l nodes=1:ppn=4")) << text;
  EXPECT_TRUE(has(text, "#PBS -l mem=8gb"));
  EXPECT_TRUE(has(text, "#PBS -l walltime=0:01:30")) << text;
  EXPECT_TRUE(has(text, "#PBS -q batch"));
  EXPECT_TRUE(has(text, "#PBS -t 1-3,6,9%2")) << text;
  EXPECT_NE(text.find("exec >'/tmp/out-'\"$(printf %01d \"$PBS_ARRAYID\")\"'.txt' 2>&1 || exit 1"), std::string::npos)
      << text;
  EXPECT_NE(text.find("export YARD_ARRAY_TASK_ID=\"$PBS_ARRAYID\""), std::string::npos);
}

TEST(TorqueScript, DependenciesOnJobsAndWholeArrays) {
  auto c = ctx();
  c.dependencies = {{DependencyKind::AfterOk, "12", false},    {DependencyKind::AfterOk, "13", false},
                    {DependencyKind::AfterOk, "14", true},     {DependencyKind::AfterAny, "15", true},
                    {DependencyKind::AfterNotOk, "16", false}, {DependencyKind::After, "17", true}};
  EXPECT_TRUE(has(script(spec(), c),
                  "#PBS -W depend=afterok:12:13,afterokarray:14[],afteranyarray:15[],afternotok:16,afterstartarray:17[]"))
      << script(spec(), c);
  c.dependencies = {{DependencyKind::AfterOk, "12[3]", false}};
  EXPECT_NE(refusal(spec(), c).find("backend torque"), std::string::npos);
  c.dependencies = {{DependencyKind::AfterOk, "12;x", false}};
  EXPECT_NE(refusal(spec(), c).find("not a Torque job id"), std::string::npos);
}

TEST(TorqueScript, WhatTorqueCannotExpressIsRefusedNamingTheOptionAndTheBackend) {
  auto s = spec();
  s.res.gpus = 1;
  EXPECT_NE(refusal(s).find("--gpus: backend torque"), std::string::npos);
  TorqueSettings site;
  site.gpus = true;
  EXPECT_TRUE(has(script(s, ctx(), site), "#PBS -l nodes=1:ppn=1:gpus=1")) << script(s, ctx(), site);
  s = spec();
  s.qos = "high";
  EXPECT_NE(refusal(s).find("--qos: backend torque"), std::string::npos);
  s = spec();
  s.res.ntasks = 4;
  s.res.cpus_per_task = 2;  // tasks of several CPUs: Torque has no such shape
  EXPECT_NE(refusal(s).find("--cpus-per-task 2: backend torque"), std::string::npos) << refusal(s);
  EXPECT_FALSE(torque_settings_from({{"gpus", "maybe"}}, "torque.yaml"));
  EXPECT_TRUE(torque_settings_from({{"gpus", "true"}}, "torque.yaml")->gpus);
}

}  // namespace
}  // namespace yard
