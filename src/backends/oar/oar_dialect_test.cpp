// The OAR dialect's command lines, its array element ids and its reading of failed
// commands, on the words a real OAR 2.5.9 prints (tests/fixtures/oar).
#include "backends/oar/oar_dialect.h"

#include <gtest/gtest.h>

#include "backends/oar/oar_argv.h"
#include "backends/oar/oar_fixtures_for_tests.h"

namespace yard {
namespace {

TEST(OarDialect, OneListingPerCycleAndOneHistoryCallForAllJobs) {
  OarDialect d("alice", {});
  EXPECT_EQ(d.poll_argv({"1", "2"}), (std::vector<std::string>{"oarstat", "-J", "-u", "alice"}));
  EXPECT_EQ(d.find_argv(), d.poll_argv({}));
  EXPECT_EQ(d.history_argv({"1", "22", "x;1", "333"}, 0),
            (std::vector<std::string>{"oarstat", "-J", "-f", "--sql", "job_id IN (1,22,333)"}));
  EXPECT_EQ(d.find_history_argv({"yard-a", "yard-b"}, 1000),
            (std::vector<std::string>{"oarstat", "-J", "--sql",
                                      "job_user = 'alice' AND job_name IN ('yard-a','yard-b') AND submission_time >= 400"}));
  EXPECT_EQ(d.cancel_argv({"4", "5"}), (std::vector<std::string>{"oardel", "4", "5"}));
  EXPECT_EQ(d.submit_argv("/s/x.sh"), (std::vector<std::string>{"oarsub", "-S", "/s/x.sh"}));
  EXPECT_EQ(sql_literal("o'brien"), "'o''brien'");
}

TEST(OarDialect, ArrayElementsAreJobsNumberedOnFromTheFirst) {
  OarDialect d("alice", {});
  EXPECT_EQ(d.element_id("12", 0, 0), "12");
  EXPECT_EQ(d.element_id("12", 17, 2), "14");
  EXPECT_TRUE(d.array_dependency_by_elements());
  // What oarsub printed for --array 3: the first id, which is the array's.
  auto first = d.parse_submit(oar_fixture("oarsub_array.out"));
  ASSERT_TRUE(first) << first.error();
  auto plain = d.parse_submit(oar_fixture("oarsub_plain.out"));
  ASSERT_TRUE(plain) << plain.error();
  EXPECT_EQ(oar_fixture("oarsub_plain.out").find("OAR_JOB_ID=" + *plain), oar_fixture("oarsub_plain.out").find("OAR_JOB_ID="));
  EXPECT_NE(oar_fixture("oarsub_array.out").find("OAR_ARRAY_ID=" + *first), std::string::npos);
  EXPECT_FALSE(d.parse_submit(oar_fixture("oarsub_too_many_cores.out")));
}

TEST(OarDialect, ElementsListedByTheirArrayWhenLookedUp) {
  OarDialect d("alice", {});
  auto all = d.parse_poll(oar_fixture("oarstat_sql.out"));
  ASSERT_TRUE(all) << all.error();
  int elements = 0;
  std::string array;
  for (auto& s : *all)
    if (s.name == "yard-array") {
      ++elements;
      if (array.empty()) array = s.submission_id;
      EXPECT_EQ(s.submission_id, array);
    } else if (s.name == "yard-plain") {
      EXPECT_EQ(s.submission_id, s.native_id);
    }
  EXPECT_EQ(elements, 3);
}

TEST(OarDialect, AnUnreachableServerOrDatabaseIsTransientARefusalIsNot) {
  OarDialect d("alice", {});
  for (auto name : {"oarsub_too_many_cores", "oarsub_unknown_option", "oarsub_bad_walltime", "oarsub_root",
                    "oardel_unknown"})
    EXPECT_FALSE(d.transient_failure(std::stoi(oar_fixture(std::string(name) + ".rc")), oar_fixture(std::string(name) + ".stderr")))
        << name;
  for (auto name : {"oarsub_server_down", "oardel_server_down", "oarstat_u_db_down", "oarsub_db_down", "oardel_db_down"})
    EXPECT_TRUE(d.transient_failure(std::stoi(oar_fixture(std::string(name) + ".rc")), oar_fixture(std::string(name) + ".stderr")))
        << name;
  EXPECT_FALSE(d.transient_failure(0, ""));
}

TEST(OarDialect, OnlyAfterAnyIsExpressed) {
  OarDialect d("alice", {});
  EXPECT_TRUE(d.expresses(DependencyKind::AfterAny));
  EXPECT_FALSE(d.expresses(DependencyKind::AfterOk));
  EXPECT_FALSE(d.expresses(DependencyKind::AfterNotOk));
}

}  // namespace
}  // namespace yard
