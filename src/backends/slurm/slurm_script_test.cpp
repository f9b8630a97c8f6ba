#include "backends/slurm/slurm_script.h"
#include "backends/job_wrapper.h"

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "backends/slurm/slurm_dialect.h"
#include "backends/slurm/slurm_quote.h"
#include "backends/slurm/sbatch_word_testing.h"
#include "core/batch_directives.h"

extern char** environ;

namespace yard {
namespace {

namespace fs = std::filesystem;
using testing::sbatch_word;

const std::string kUid = "yd00112233445566ff";


std::string directive(const std::string& script, const std::string& option) {
  const std::string key = "#SBATCH --" + option + "=";
  auto pos = script.find("\n" + key);
  if (pos == std::string::npos) return "<none>";
  auto start = pos + 1 + key.size();
  return sbatch_word(std::string_view(script).substr(start, script.find('\n', start) - start));
}

JobSpec basic() {
  JobSpec s;
  s.name = "job";
  s.argv = {"/bin/true"};
  s.workdir = "/w";
  return s;
}

Result<std::string> gen(const JobSpec& s, SubmitContext ctx = {kUid, "", "", {}, {}}) {
  return SlurmDialect().batch_script(s, ctx);
}

TEST(SlurmScript, Directives) {
  JobSpec s = basic();
  s.res.nodes = 2;
  s.res.ntasks = 8;
  s.res.cpus_per_task = 4;
  s.res.mem_bytes = 1024 * 1024 * 1024 + 1;
  s.res.gpus = 4;
  s.res.walltime_s = 2 * 86400 + 3 * 3600 + 4 * 60 + 5;
  s.partition = "cpu";
  s.account = "proj 1#x'y\"z\\";
  s.qos = "high";
  s.priority = -10;
  s.array = ArraySpec{{0, 1, 2, 3, 7, 9, 11, 13, 20, 22}, 5};
  SubmitContext ctx{kUid, "/o/%x-%j.out", "/o/100%-%a_%A.err", {}, {}};
  ctx.dependencies = {{DependencyKind::AfterOk, "12", false}, {DependencyKind::AfterAny, "13_2", false},
                      {DependencyKind::AfterOk, "14+1", false}, {DependencyKind::AfterNotOk, "15", false}};
  auto r = gen(s, ctx);
  ASSERT_TRUE(r.ok()) << r.error();
  const std::string& t = *r;
  EXPECT_EQ(t.rfind("#!/bin/bash\n", 0), 0u);
  EXPECT_EQ(directive(t, "job-name"), "yard-" + kUid + "-job");
  EXPECT_EQ(directive(t, "nodes"), "2");
  EXPECT_EQ(directive(t, "ntasks"), "8");
  EXPECT_EQ(directive(t, "cpus-per-task"), "4");
  EXPECT_EQ(directive(t, "mem"), "1025M");
  EXPECT_EQ(directive(t, "mem-per-cpu"), "<none>");
  EXPECT_EQ(directive(t, "gpus"), "4");
  EXPECT_EQ(directive(t, "time"), "2-03:04:05");
  EXPECT_EQ(directive(t, "partition"), "cpu");
  EXPECT_EQ(directive(t, "account"), "proj 1#x'y\"z\\");
  EXPECT_EQ(directive(t, "qos"), "high");
  EXPECT_EQ(directive(t, "nice"), "10");
  EXPECT_EQ(directive(t, "array"), "0-3,7-13:2,20,22%5");
  EXPECT_EQ(directive(t, "dependency"), "afterok:12:14,afterany:13_2,afternotok:15");
  EXPECT_EQ(directive(t, "output"), "/o/job-%j.out");
  EXPECT_EQ(directive(t, "error"), "/o/100%%-%a_%A.err");
  EXPECT_EQ(directive(t, "chdir"), "/w");
  EXPECT_EQ(directive(t, "export"), "ALL");
  // An element's index under yard's name, as on every backend.
  EXPECT_NE(t.find("export YARD_ARRAY_TASK_ID=\"$SLURM_ARRAY_TASK_ID\"\n"), std::string::npos) << t;
}

TEST(SlurmScript, OptionalDirectives) {
  JobSpec s = basic();
  s.res.mem_per_cpu_bytes = 512 * 1024;
  s.res.gpus = 1;
  s.priority = 5;  // users cannot raise their priority in Slurm
  auto r = gen(s);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(directive(*r, "mem-per-cpu"), "1M");
  EXPECT_EQ(directive(*r, "gres"), "gpu:1");
  s.res.mem_per_cpu_bytes = UINT64_MAX;  // rounded up to MiB without wrapping to 0
  EXPECT_EQ(directive(*gen(s), "mem-per-cpu"), "16777216T");
  for (auto o : {"mem", "gpus", "time", "partition", "account", "qos", "nice", "array", "dependency", "output", "error"})
    EXPECT_EQ(directive(*r, o), "<none>") << o;
  EXPECT_EQ(r->find("#SBATCH --priority"), std::string::npos);
}

TEST(SlurmScript, SbatchsOtherOptionsAndRequeuePassUnchanged) {
  JobSpec s = basic();
  s.slurm_options = {{"mail-type", "END,FAIL"}, {"exclusive", ""}, {"constraint", "haswell&ib"}, {"signal", "B:USR1@60"}};
  s.requeue = false;
  auto r = gen(s);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(directive(*r, "mail-type"), "END,FAIL");
  EXPECT_EQ(directive(*r, "constraint"), "haswell&ib");
  EXPECT_EQ(directive(*r, "signal"), "B:USR1@60");
  EXPECT_NE(r->find("#SBATCH --exclusive\n"), std::string::npos) << *r;
  EXPECT_NE(r->find("#SBATCH --no-requeue\n"), std::string::npos) << *r;
  s.slurm_options = {{"comment", "a\nb"}};  // no value may break its line
  EXPECT_FALSE(gen(s).ok());
  s.slurm_options = {{"no-such-option", "x"}};
  EXPECT_FALSE(gen(s).ok());
}

TEST(SlurmScript, HeterogeneousComponentsAreSeparatedByHetjob) {
  JobSpec s = basic();
  s.res.ntasks = 2;
  s.partition = "cpu";
  s.account = "proj";
  Component gpu;
  gpu.partition = "gpu";
  gpu.res.gpus = 1;
  gpu.res.mem_bytes = 1024 * 1024 * 1024;
  gpu.res.other_gres = "nvme:1";
  s.components = {gpu, Component{}};
  s.components[1].res.cpus_per_task = 3;
  s.components[1].res.nodes = 2;
  s.components[1].res.max_nodes = 4;
  s.components[1].slurm_options = {{"ntasks-per-node", "1"}, {"exclusive", ""}};
  auto r = gen(s);
  ASSERT_TRUE(r.ok()) << r.error();
  // Read back as sbatch reads it: component 0 has every job-wide directive, the job
  // runs once (in component 0), each further component has its own resources.
  auto d = read_batch_directives(*r, "het.sh");
  ASSERT_TRUE(d.ok()) << d.error();
  using Words = std::vector<std::string>;
  auto has = [](const Words& w, const std::string& x) { return std::find(w.begin(), w.end(), x) != w.end(); };
  EXPECT_TRUE(has(d->words, "--ntasks=2"));
  EXPECT_TRUE(has(d->words, "--partition=cpu"));
  EXPECT_TRUE(has(d->words, "--account=proj"));
  EXPECT_TRUE(has(d->words, "--export=ALL"));
  EXPECT_TRUE(has(d->words, "--job-name=yard-" + kUid + "-job"));
  ASSERT_EQ(d->components.size(), 2u);
  EXPECT_EQ(d->components[0], (Words{"--nodes=1", "--ntasks=1", "--cpus-per-task=1", "--mem=1G", "--gres=gpu:1,nvme:1",
                                     "--partition=gpu"}));
  // A component's own sbatch options follow its hetjob line, not component 0's.
  EXPECT_EQ(d->components[1], (Words{"--nodes=2-4", "--ntasks=1", "--cpus-per-task=3", "--ntasks-per-node=1", "--exclusive"}));
  EXPECT_FALSE(has(d->words, "--exclusive"));
  EXPECT_EQ(r->find("exec -- /bin/true"), r->rfind("exec -- /bin/true"));
  // A bad value in a component names it.
  s.components[1].res.ntasks = 0;
  auto bad = gen(s);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("component 2: --ntasks"), std::string::npos) << bad.error();
}

TEST(SlurmScript, NativeNameCarriesTheUidWhateverTheName) {
  JobSpec s = basic();
  s.name = "we|rd 'name' $(x) #1";
  auto r = gen(s);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(directive(*r, "job-name"), "yard-" + kUid + "-we_rd__name____x___1");
  EXPECT_EQ(SlurmDialect().uid_from_native_name(directive(*r, "job-name")), kUid);
}

TEST(SlurmScript, OutputPatterns) {
  EXPECT_EQ(*slurm_output_pattern("/a/%j.%A.%a.%u.%%", "n"), "/a/%j.%A.%a.%u.%%");
  EXPECT_EQ(*slurm_output_pattern("/a/%x.out", "my%job"), "/a/my%%job.out");
  EXPECT_EQ(*slurm_output_pattern("/a/%N-%5j-50%", "n"), "/a/%%N-%%5j-50%%");
  EXPECT_FALSE(slurm_output_pattern("/a\\b", "n").ok());
  EXPECT_EQ(*slurm_output_pattern("/a/%3a-%%3j", "n"), "/a/%3a-%%3j");  // Slurm pads the index
}

TEST(SlurmScript, OpenModeIsADirectiveNotAVariable) {
  JobSpec s = basic();
  auto r = gen(s);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(directive(*r, "open-mode"), "<none>");  // the cluster's JobFileAppend decides
  s.set_open_mode(OpenMode::Append);
  r = gen(s);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(directive(*r, "open-mode"), "append");
  EXPECT_EQ(r->find(kOpenModeVariable), std::string::npos);
}

TEST(SlurmScript, ArrayText) {
  EXPECT_EQ(array_text({{5}, 0}), "5");
  EXPECT_EQ(array_text({{1, 2}, 0}), "1-2");
  EXPECT_EQ(array_text({{1, 3}, 0}), "1,3");
  EXPECT_EQ(array_text({{1, 3, 5, 7, 9}, 2}), "1-9:2%2");
  EXPECT_EQ(array_text({{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 0}), "0-15");
  auto parsed = parse_array_spec("1,3,5-9:2,100-200%7");
  ASSERT_TRUE(parsed.ok());
  auto again = parse_array_spec(array_text(*parsed));
  ASSERT_TRUE(again.ok()) << array_text(*parsed);
  EXPECT_EQ(again->indices, parsed->indices);
  EXPECT_EQ(again->max_running, 7);
}

TEST(SlurmScript, WhatEveryShellExportsIsSkippedNotRefused) {
  JobSpec s = basic();
  s.env["_"] = "/usr/bin/yard";
  s.env["BASH_FUNC_f%%"] = "() { evil; }";
  auto r = gen(s);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->find("BASH_FUNC"), std::string::npos);
  EXPECT_EQ(r->find("export _="), std::string::npos);
}

TEST(SlurmScript, AVariableNameNoShellCanExportIsLeftOutWithAWarning) {
  JobSpec s = basic();
  s.env["A-B"] = "x";
  s.env["1A"] = "y";
  s.env[""] = "z";
  s.env["GOOD"] = "kept";
  auto r = gen(s);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->find("A-B"), std::string::npos);
  EXPECT_EQ(r->find("1A="), std::string::npos);
  EXPECT_NE(r->find("export GOOD="), std::string::npos);
  const auto warned = unwrappable_variables(s);
  ASSERT_EQ(warned.size(), 3u);
  EXPECT_EQ(warned[0], "environment variable '' is not a shell identifier (letters, digits and '_', not starting with "
                       "a digit): a batch script cannot export it, and the job runs without it");
  EXPECT_NE(warned[2].find("'A-B'"), std::string::npos) << warned[2];
}

TEST(SlurmScript, Refusals) {
  auto refused = [](const JobSpec& s, const std::string& needle, SubmitContext ctx = {kUid, "", "", {}, {}}) {
    auto r = gen(s, ctx);
    ASSERT_FALSE(r.ok()) << needle;
    EXPECT_NE(r.error().find(needle), std::string::npos) << r.error();
  };
  JobSpec s = basic();
  s.env["UID"] = "0";
  refused(s, "UID cannot be set");

  s = basic();
  s.env["X"] = std::string("a\0b", 3);
  refused(s, "NUL byte");
  s = basic();
  s.argv.push_back(std::string("a\0b", 3));
  refused(s, "NUL byte");
  s = basic();
  s.partition = "cpu\n#SBATCH --wrap=evil";
  refused(s, "--partition 'cpu\\n#SBATCH --wrap=evil': backend slurm cannot run this job: it contains a control "
             "character");
  s = basic();
  s.workdir = "/w\nx";
  refused(s, "working directory");
  s = basic();
  s.script = "#!/bin/sh\r\necho hi\r\n";
  refused(s, "DOS line breaks");
  s.script = "#!/bin/sh\necho hi\r";
  refused(s, "at byte 17,");
  s = basic();
  refused(s, "backslash", SubmitContext{kUid, "/o\\x", "", {}, {}});
  s = basic();
  refused(s, "not a Slurm job id", SubmitContext{kUid, "", "", {{DependencyKind::AfterOk, "12:13", false}}, {}});
  s = basic();
  refused(s, "not a Slurm job id", SubmitContext{kUid, "", "", {{DependencyKind::AfterOk, "12_[1-3]", false}}, {}});
  s = basic();
  refused(s, "not a UID", SubmitContext{"yd1\n", "", "", {}, {}});
  s = basic();
  s.workdir = "relative";
  refused(s, "absolute path");
}

}  // namespace
}  // namespace yard
