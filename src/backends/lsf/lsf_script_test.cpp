// The LSF batch script: #BSUB directives, the UID and array indices in -J, dependencies in
// LSF's words, refusals naming the option and the backend; and the dialect's commands.
#include "backends/lsf/lsf_script.h"

#include <gtest/gtest.h>

#include "backends/script_testing.h"

#include "backends/lsf/lsf_dialect.h"

namespace yard {
namespace {

using script_testing::ctx;
using script_testing::kUid;
using script_testing::spec;

bool has(const std::string& text, const std::string& line) { return text.find(line + "\n") != std::string::npos; }

TEST(LsfScript, DirectivesDependenciesAndRefusals) {
  auto s = spec();
  s.res.cpus_per_task = 4;
  s.res.walltime_s = 2;  // LSF counts minutes: rounded up, said so
  s.array = *parse_array_spec("1-4%2");
  auto c = ctx();
  c.dependencies = {{DependencyKind::AfterOk, "12", false}, {DependencyKind::AfterAny, "13", true},
                    {DependencyKind::AfterNotOk, "14[2]", false}};
  auto r = lsf_batch_script(s, c, {});
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(has(*r, "#BSUB -J \"yard-yd0123456789abcdef-train[1-4]%2\"")) << *r;
  EXPECT_TRUE(has(*r, "#BSUB -o /dev/null"));
  EXPECT_TRUE(has(*r, "#BSUB -n 4"));
  EXPECT_TRUE(has(*r, "#BSUB -W 0:01")) << *r;
  EXPECT_TRUE(has(*r, "#BSUB -w 'done(12) && ended(13) && exit(14[2])'")) << *r;
  EXPECT_NE(r->find("export YARD_ARRAY_TASK_ID=\"$LSB_JOBINDEX\""), std::string::npos);
  auto refused = [&](JobSpec bad, const SubmitContext& cc = ctx()) {
    auto rr = lsf_batch_script(bad, cc, {});
    EXPECT_FALSE(rr);
    return rr ? std::string() : rr.error();
  };
  s = spec();
  s.res.gpus = 1;
  EXPECT_NE(refused(s).find("--gpus: backend lsf"), std::string::npos);
  LsfSettings site;
  site.gpus = true;
  EXPECT_TRUE(has(*lsf_batch_script(s, ctx(), site), "#BSUB -gpu \"num=1\""));
  s = spec();
  s.array = *parse_array_spec("0-3");
  EXPECT_NE(refused(s).find("--array: backend lsf"), std::string::npos);
  s = spec();
  s.qos = "high";
  EXPECT_NE(refused(s).find("--qos: backend lsf"), std::string::npos);
  c.dependencies = {{DependencyKind::AfterOk, "12) || done(1", false}};
  EXPECT_NE(refused(spec(), c).find("not an LSF job id"), std::string::npos);
  EXPECT_FALSE(lsf_settings_from({{"gpus", "yes"}}, "lsf.yaml"));
}

TEST(LsfDialect, BsubReadsTheScriptOnStdinAndOneBjobsListsEveryJob) {
  LsfDialect d("alice", {});
  EXPECT_TRUE(d.submit_reads_script_on_stdin());
  EXPECT_EQ(d.submit_argv("/s/x.sh"), (std::vector<std::string>{"bsub"}));
  const auto poll = d.poll_argv({"1", "2[3]", "2[4]"});
  EXPECT_EQ(std::vector<std::string>(poll.begin() + 5, poll.end()), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(std::vector<std::string>(poll.begin(), poll.begin() + 3), (std::vector<std::string>{"bjobs", "-a", "-json"}));
  EXPECT_EQ(d.find_argv().back(), "alice");
  EXPECT_EQ(d.cancel_argv({"4", "5[2]"}), (std::vector<std::string>{"bkill", "4", "5[2]"}));
  EXPECT_EQ(d.element_id("12", 3, 2), "12[3]");
  EXPECT_EQ(*d.uid_from_native_name("yard-yd0123456789abcdef-train[1-4]%2"), "yd0123456789abcdef");
  EXPECT_EQ(*d.uid_from_native_name("yard-yd0123456789abcdef[3]"), "yd0123456789abcdef");
  EXPECT_FALSE(d.uid_from_native_name("myjob[3]"));
}

}  // namespace
}  // namespace yard
