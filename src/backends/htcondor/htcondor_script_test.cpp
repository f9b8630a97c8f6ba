// An HTCondor job as the backend submits it: the wrapper script, the submit description
// beside it (batch_name with the UID, output to the wrapper, the array's index in the
// environment, queue forms), refusals naming option and backend; and the dialect's
// commands and ids.
#include "backends/htcondor/htcondor_script.h"

#include <gtest/gtest.h>

#include "backends/script_testing.h"

#include "backends/htcondor/htcondor_dialect.h"
#include "core/array_spec.h"

namespace yard {
namespace {

using script_testing::ctx;
using script_testing::kUid;
using script_testing::spec;

bool has(const std::string& text, const std::string& line) { return text.find(line + "\n") != std::string::npos; }

TEST(HtcondorScript, DescriptionNamesTheScriptAndCarriesTheUid) {
  auto s = spec();
  s.res.cpus_per_task = 4;
  s.res.mem_bytes = 512ull << 20;
  s.res.walltime_s = 90;
  auto d = htcondor_description(s, ctx(), "/state/htcondor/yd0123456789abcdef.sh");
  ASSERT_TRUE(d) << d.error();
  EXPECT_TRUE(has(*d, "universe = vanilla")) << *d;
  EXPECT_TRUE(has(*d, "executable = /state/htcondor/yd0123456789abcdef.sh"));
  EXPECT_TRUE(has(*d, "batch_name = yard-yd0123456789abcdef-train"));
  EXPECT_TRUE(has(*d, "request_cpus = 4"));
  EXPECT_TRUE(has(*d, "request_memory = 512M"));
  EXPECT_TRUE(has(*d, "allowed_job_duration = 90"));
  EXPECT_TRUE(has(*d, "output = /dev/null"));  // the wrapper opens the job's files
  EXPECT_TRUE(has(*d, "error = /dev/null"));
  EXPECT_TRUE(has(*d, "environment = \"YARD_HTCONDOR_ID=$(Cluster).$(Process)\""));
  EXPECT_TRUE(has(*d, "queue"));
  EXPECT_EQ(d->find("getenv"), std::string::npos) << *d;  // the wrapper sets the environment
  auto script = htcondor_batch_script(s, ctx());
  ASSERT_TRUE(script) << script.error();
  EXPECT_TRUE(script->starts_with("#!/bin/bash\n# Switchyard job yd0123456789abcdef"));
}

TEST(HtcondorScript, ArraysGiveEachProcItsIndex) {
  auto s = spec();
  s.array = *parse_array_spec("1,3,5%2");
  auto d = htcondor_description(s, ctx(), "/x/u.sh");
  ASSERT_TRUE(d) << d.error();
  EXPECT_TRUE(has(*d, "environment = \"YARD_HTCONDOR_ID=$(Cluster).$(Process) YARD_HTCONDOR_INDEX=$(ArrayIndex)\"")) << *d;
  EXPECT_TRUE(has(*d, "max_materialize = 2"));
  EXPECT_TRUE(has(*d, "queue ArrayIndex in (1, 3, 5)"));
  s.array = *parse_array_spec("0-3");
  d = htcondor_description(s, ctx(), "/x/u.sh");
  ASSERT_TRUE(d) << d.error();
  EXPECT_TRUE(has(*d, "environment = \"YARD_HTCONDOR_ID=$(Cluster).$(Process) YARD_HTCONDOR_INDEX=$(Process)\"")) << *d;
  EXPECT_TRUE(has(*d, "queue 4"));
  auto script = htcondor_batch_script(s, ctx());
  ASSERT_TRUE(script);
  EXPECT_NE(script->find("YARD_HTCONDOR_INDEX"), std::string::npos);
}

TEST(HtcondorScript, RefusesWhatHtcondorCannotRunNamingIt) {
  auto refused = [](JobSpec bad) {
    auto r = htcondor_description(bad, ctx(), "/x/u.sh");
    EXPECT_FALSE(r);
    return r ? std::string() : r.error();
  };
  auto s = spec();
  s.res.nodes = 2;
  s.res.ntasks = 2;
  EXPECT_NE(refused(s).find("backend htcondor cannot run this job"), std::string::npos) << refused(s);
  s = spec();
  s.partition = "gpu";
  EXPECT_NE(refused(s).find("--partition"), std::string::npos) << refused(s);
  s = spec();
  s.qos = "high";
  EXPECT_NE(refused(s).find("--qos"), std::string::npos);
  auto c = ctx();
  c.uid = "not a uid";
  EXPECT_FALSE(htcondor_batch_script(spec(), c));
}

TEST(HtcondorDialect, CommandsAndIds) {
  HtcondorDialect d("alice");
  EXPECT_EQ(d.job_id("6"), "6.0");
  EXPECT_EQ(d.element_id("7", 5, 2), "7.2");  // procs by position
  EXPECT_FALSE(d.expresses(DependencyKind::AfterOk));
  const auto q = d.poll_argv({"6.0", "7.0", "7.1"});
  ASSERT_GE(q.size(), 6u);
  EXPECT_EQ(q[0], "condor_q");
  EXPECT_EQ(q[1], "6");
  EXPECT_EQ(q[2], "7");  // each cluster once
  EXPECT_EQ(q[3], "-json");
  const auto h = d.history_argv({"6.0"}, 1700000000.5);
  EXPECT_EQ(h.back(), "1699999999");
  EXPECT_EQ(h.at(1), "6.0");
  EXPECT_EQ(d.find_argv().at(1), "alice");
  EXPECT_EQ(d.cancel_argv({"6.0", "7.1"}), (std::vector<std::string>{"condor_rm", "6.0", "7.1"}));
  auto sub = d.submission(spec(), ctx(), "/state/htcondor/u.sh");
  ASSERT_TRUE(sub) << sub.error();
  EXPECT_EQ(sub->argv, (std::vector<std::string>{"condor_submit", "-terse", "/state/htcondor/u.sub"}));
  EXPECT_NE(sub->companion.find("executable = /state/htcondor/u.sh"), std::string::npos);
  EXPECT_EQ(d.uid_from_native_name("yard-yd0123456789abcdef-train"), std::optional<std::string>(kUid));
}

}  // namespace
}  // namespace yard
