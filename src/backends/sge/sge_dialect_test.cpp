// The Grid Engine dialect's command lines and its reading of failed commands, on the
// words a real Grid Engine 8.1.9 prints (tests/fixtures/sge).
#include "backends/sge/sge_dialect.h"

#include <gtest/gtest.h>

#include "backends/sge/sge_argv.h"
#include "core/file_text.h"

namespace yard {
namespace {

std::string fixture(const std::string& name) {
  auto text = read_file(std::string(YARD_SGE_FIXTURES) + "/" + name);
  EXPECT_TRUE(text) << text.error();
  return text ? *text : "";
}

TEST(SgeDialect, OneListingPerCycleAndOneAccountingCallForAllJobs) {
  SgeDialect d("alice", {});
  EXPECT_EQ(d.poll_argv({"1", "2.3"}), (std::vector<std::string>{"qstat", "-xml", "-u", "alice"}));
  EXPECT_EQ(d.find_argv(), d.poll_argv({}));
  const auto h = d.history_argv({"1", "2.3", "9"}, 1'000'000'000);
  ASSERT_EQ(h.size(), 8u);
  EXPECT_EQ(std::vector<std::string>(h.begin(), h.begin() + 7),
            (std::vector<std::string>{"qacct", "-o", "alice", "-j", "yard-*", "-E", "-b"}));
  EXPECT_EQ(h[7], sge_local_time(1'000'000'000 - 600));
  EXPECT_EQ(d.cancel_argv({"4", "5.2"}), (std::vector<std::string>{"qdel", "4", "5.2"}));
  EXPECT_EQ(d.submit_argv("/s/x.sh"), (std::vector<std::string>{"qsub", "-terse", "/s/x.sh"}));
  EXPECT_EQ(d.element_id("12", 3, 2), "12.3");
  EXPECT_EQ(d.action_argv(JobAction::Hold, {"4", "5.2"}), (std::vector<std::string>{"qhold", "-h", "u", "4", "5.2"}));
  EXPECT_EQ(d.action_argv(JobAction::Release, {"4"}), (std::vector<std::string>{"qrls", "-h", "u", "4"}));
  EXPECT_TRUE(d.action_argv(JobAction::Requeue, {"4"}).empty());
}

TEST(SgeDialect, LocalTimeIsQacctsForm) {
  const auto t = sge_local_time(1'000'000'000);
  ASSERT_EQ(t.size(), 15u) << t;  // CCYYMMDDhhmm.SS
  EXPECT_EQ(t[12], '.');
}

TEST(SgeDialect, AnAccountingCallThatFindsNoRecordIsAnEmptyAnswer) {
  SgeDialect d("alice", {});
  EXPECT_TRUE(d.found_nothing(1, fixture("qacct_pattern_none.stderr")));
  // A single unknown id is not asked by the engine, and an outage is no empty answer.
  EXPECT_FALSE(d.found_nothing(1, fixture("qacct_unknown.stderr")));
  EXPECT_FALSE(d.found_nothing(0, ""));
}

TEST(SgeDialect, AnUnreachableQmasterIsTransientARefusalIsNot) {
  SgeDialect d("alice", {});
  EXPECT_FALSE(d.transient_failure(1, fixture("qsub_unknown_queue.stderr"))) << fixture("qsub_unknown_queue.stderr");
  EXPECT_FALSE(d.transient_failure(1, fixture("qsub_name_with_space.stderr")));
  for (auto name : {"qsub_qmaster_down", "qstat_xml_qmaster_down", "qdel_qmaster_down"})
    EXPECT_TRUE(d.transient_failure(1, fixture(std::string(name) + ".stderr"))) << name;
  EXPECT_FALSE(d.found_nothing(1, fixture("qstat_xml_qmaster_down.stderr")));
}

TEST(SgeDialect, OnlyAfterAnyIsExpressed) {
  SgeDialect d("alice", {});
  EXPECT_TRUE(d.expresses(DependencyKind::AfterAny));
  EXPECT_FALSE(d.expresses(DependencyKind::AfterOk));
  EXPECT_FALSE(d.expresses(DependencyKind::AfterNotOk));
}

}  // namespace
}  // namespace yard
