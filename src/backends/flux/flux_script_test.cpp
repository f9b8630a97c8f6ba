// A Flux job as the backend submits it: the wrapper script and a command line carrying
// the job's options (flux submit for one task, flux batch for more), dependencies on
// native ids, copies for an array, refusals naming option and backend; the dialect's
// commands.
#include "backends/flux/flux_script.h"

#include <gtest/gtest.h>

#include "backends/script_testing.h"

#include <algorithm>

#include "backends/flux/flux_dialect.h"
#include "core/array_spec.h"

namespace yard {
namespace {

using script_testing::ctx;
using script_testing::kUid;
using script_testing::spec;

bool has(const std::vector<std::string>& argv, const std::string& word) {
  return std::find(argv.begin(), argv.end(), word) != argv.end();
}

TEST(FluxScript, OneTaskIsFluxSubmitWithItsOptionsOnTheLine) {
  auto s = spec();
  s.res.cpus_per_task = 4;
  s.res.walltime_s = 120;
  auto c = ctx();
  c.dependencies = {{DependencyKind::AfterOk, "f3croSDd", false}, {DependencyKind::After, "\xC6\x92" "21", false}};
  auto argv = flux_submit_argv(s, c, "/state/flux/u.sh");
  ASSERT_TRUE(argv) << argv.error();
  EXPECT_EQ((*argv)[0], "flux");
  EXPECT_EQ((*argv)[1], "submit");
  EXPECT_TRUE(has(*argv, "--job-name=yard-yd0123456789abcdef-train"));
  EXPECT_TRUE(has(*argv, "-c"));
  EXPECT_TRUE(has(*argv, "4"));
  EXPECT_TRUE(has(*argv, "2m"));
  EXPECT_TRUE(has(*argv, "--output=/dev/null"));
  EXPECT_TRUE(has(*argv, "--dependency=afterok:f3croSDd"));
  EXPECT_TRUE(has(*argv, "--dependency=afterstart:f21"));
  EXPECT_EQ(argv->back(), "/state/flux/u.sh");
  auto script = flux_batch_script(s, c);
  ASSERT_TRUE(script) << script.error();
  EXPECT_TRUE(script->starts_with("#!/bin/bash\n# Switchyard job yd0123456789abcdef")) << *script;
  EXPECT_NE(script->find("\n#   -t 2m\n"), std::string::npos) << *script;  // how it was submitted
  EXPECT_NE(script->find("\n#   --dependency=afterok:f3croSDd\n"), std::string::npos) << *script;
  // A value with blanks or quotes, quoted as bash reads it.
  s.account = "it's mine";
  script = flux_batch_script(s, c);
  ASSERT_TRUE(script) << script.error();
  EXPECT_NE(script->find("\n#   -B 'it'\\''s mine'\n"), std::string::npos) << *script;
}

TEST(FluxScript, SeveralTasksAreFluxBatchAndArraysAreCopies) {
  auto s = spec();
  s.res.ntasks = 4;
  auto argv = flux_submit_argv(s, ctx(), "/x/u.sh");
  ASSERT_TRUE(argv) << argv.error();
  EXPECT_EQ((*argv)[1], "batch");
  EXPECT_TRUE(has(*argv, "-n"));
  s = spec();
  s.array = *parse_array_spec("1-4");
  argv = flux_submit_argv(s, ctx(), "/x/u.sh");
  ASSERT_TRUE(argv) << argv.error();
  EXPECT_EQ((*argv)[1], "submit");
  EXPECT_TRUE(has(*argv, "--cc=1-4")) << (*argv)[2];
  auto script = flux_batch_script(s, ctx());
  ASSERT_TRUE(script);
  EXPECT_NE(script->find("FLUX_JOB_CC"), std::string::npos);
}

TEST(FluxScript, RefusesWhatFluxCannotRunNamingIt) {
  auto refused = [](JobSpec bad, SubmitContext c = ctx()) {
    auto r = flux_submit_argv(bad, c, "/x/u.sh");
    EXPECT_FALSE(r);
    return r ? std::string() : r.error();
  };
  auto s = spec();
  s.res.mem_bytes = 1ull << 30;
  EXPECT_NE(refused(s).find("backend flux cannot run this job"), std::string::npos) << refused(s);
  s = spec();
  s.array = *parse_array_spec("1-4%2");
  EXPECT_NE(refused(s).find("backend flux"), std::string::npos) << refused(s);
  s = spec();
  s.array = *parse_array_spec("1-4");
  s.res.ntasks = 2;
  EXPECT_NE(refused(s).find("--array"), std::string::npos) << refused(s);
  auto c = ctx();
  c.dependencies = {{DependencyKind::AfterOk, "12_3", false}};
  EXPECT_NE(refused(spec(), c).find("not a Flux job id"), std::string::npos);
}

TEST(FluxDialect, CommandsAndIds) {
  FluxDialect d;
  EXPECT_EQ(d.poll_argv({"f21", "f22"}), (std::vector<std::string>{"flux", "jobs", "--json", "f21", "f22"}));
  EXPECT_EQ(d.find_argv(), (std::vector<std::string>{"flux", "jobs", "--json", "-a"}));
  EXPECT_EQ(d.cancel_argv({"f21"}), (std::vector<std::string>{"flux", "cancel", "f21"}));
  EXPECT_EQ(*d.parse_submit("\xC6\x92" "3croSDd\n"), "f3croSDd");
  EXPECT_EQ(d.element_ids_from_submit("f21\nf22\n"), (std::vector<std::string>{"f21", "f22"}));
  EXPECT_TRUE(d.array_dependency_by_elements());
  EXPECT_FALSE(d.expresses(DependencyKind::Singleton));
  auto sub = d.submission(spec(), ctx(), "/x/u.sh");
  ASSERT_TRUE(sub) << sub.error();
  EXPECT_TRUE(sub->companion.empty());
  EXPECT_EQ(sub->argv.back(), "/x/u.sh");
}

}  // namespace
}  // namespace yard
