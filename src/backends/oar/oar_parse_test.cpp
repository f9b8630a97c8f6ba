// OAR's readers on output captured from a real OAR 2.5.9 (tests/fixtures/oar): oarsub's
// ids and refusals, oarstat -J in its short and full (-f) forms, every outcome's state,
// exit status, signal and events, and what the state map makes of them.
#include "backends/oar/oar_parse.h"

#include <gtest/gtest.h>

#include <map>

#include "backends/oar/oar_states.h"
#include "backends/oar/oar_fixtures_for_tests.h"

namespace yard {
namespace {

// The statuses of a fixture by job name.
std::map<std::string, NativeStatus> by_name(const std::string& name) {
  auto r = parse_oarstat_json(oar_fixture(name));
  EXPECT_TRUE(r) << name << ": " << r.error();
  std::map<std::string, NativeStatus> m;
  if (r)
    for (auto& s : *r) m[s.name + (m.count(s.name) ? "#" + s.native_id : "")] = s;
  return m;
}

TEST(OarParse, OarsubGivesTheIdsOfAJobAndOfAnArrayPastTheAdmissionRules) {
  auto plain = parse_oarsub(oar_fixture("oarsub_plain.out"), "");
  ASSERT_TRUE(plain) << plain.error();
  ASSERT_EQ(plain->job_ids.size(), 1u);
  EXPECT_TRUE(plain->array_id.empty());
  auto array = parse_oarsub(oar_fixture("oarsub_array.out"), oar_fixture("oarsub_array.stderr"));
  ASSERT_TRUE(array) << array.error();
  ASSERT_EQ(array->job_ids.size(), 3u);
  EXPECT_EQ(array->array_id, array->job_ids[0]);
}

TEST(OarParse, ARefusalCarriesOarsOwnWords) {
  auto r = parse_oarsub(oar_fixture("oarsub_too_many_cores.out"), oar_fixture("oarsub_too_many_cores.stderr"));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("OAR_JOB_ID=-5"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("There are not enough resources for your request"), std::string::npos) << r.error();
  auto root = parse_oarsub(oar_fixture("oarsub_root.out"), oar_fixture("oarsub_root.stderr"));
  ASSERT_FALSE(root);
  for (const char* bad : {"", "hello\n", "OAR_JOB_ID=\n", "OAR_JOB_ID=12x\n", "OAR_JOB_ID=1\nOAR_ARRAY_ID=z\n"})
    EXPECT_FALSE(parse_oarsub(bad, "")) << bad;
}

TEST(OarParse, EveryOutcomeOfAnEndedJob) {
  auto m = by_name("oarstat_f_ended.out");
  auto state = [&](const std::string& name) { return map_oar_state(m.at(name)).state; };
  ASSERT_TRUE(m.count("yard-plain"));
  EXPECT_EQ(m.at("yard-plain").exit_code, 0);
  EXPECT_TRUE(m.at("yard-plain").start_time.has_value());
  EXPECT_TRUE(m.at("yard-plain").end_time.has_value());
  EXPECT_EQ(m.at("yard-plain").node_list, "localhost");
  EXPECT_EQ(state("yard-plain"), JobState::Completed);
  EXPECT_EQ(m.at("yard-exit3").exit_code, 3);  // raw wait status 768
  EXPECT_EQ(state("yard-exit3"), JobState::Failed);
  EXPECT_EQ(m.at("yard-kill9").signal, 9);
  EXPECT_FALSE(m.at("yard-kill9").exit_code.has_value());
  EXPECT_EQ(state("yard-kill9"), JobState::Failed);
  EXPECT_EQ(state("yard-walltime"), JobState::Timeout);
  EXPECT_EQ(state("yard-running"), JobState::Cancelled);
  EXPECT_EQ(state("yard-waiting"), JobState::Cancelled);
  EXPECT_FALSE(m.at("yard-waiting").start_time.has_value());  // startTime 0: it never ran
  EXPECT_EQ(state("yard-held"), JobState::Cancelled);
  EXPECT_EQ(state("yard-besteffort"), JobState::Failed);
  EXPECT_NE(map_oar_state(m.at("yard-besteffort")).detail.find("preempted"), std::string::npos);
  EXPECT_EQ(state("yard-after"), JobState::Completed);
  EXPECT_EQ(state("yard-inner"), JobState::Completed);
}

TEST(OarParse, CurrentJobsInTheShortFormHaveNoExitStatus) {
  auto r = parse_oarstat_json(oar_fixture("oarstat_u_mixed.out"));
  ASSERT_TRUE(r) << r.error();
  ASSERT_FALSE(r->empty());
  std::map<std::string, int> states;
  for (auto& s : *r) {
    ++states[s.raw_state];
    EXPECT_FALSE(s.exit_code.has_value());
    EXPECT_NE(map_oar_state(s).state, JobState::Unknown) << s.raw_state;
    EXPECT_FALSE(is_terminal(map_oar_state(s).state)) << s.raw_state;
  }
  EXPECT_TRUE(states.count("Running") && states.count("Waiting") && states.count("Hold"));
  auto full = parse_oarstat_json(oar_fixture("oarstat_f_current.out"));
  ASSERT_TRUE(full) << full.error();
  EXPECT_FALSE(full->empty());
}

TEST(OarParse, NothingMatchingIsAnEmptyOutputAndGarbageIsAnError) {
  for (const char* none : {"oarstat_f_unknown.out", "oarstat_u_none.out", "oarstat_sql_none.out"}) {
    auto r = parse_oarstat_json(oar_fixture(none));
    ASSERT_TRUE(r) << none << ": " << r.error();
    EXPECT_TRUE(r->empty()) << none;
  }
  for (const char* bad : {"{", "[]", "7", R"({"x":{"state":"Running"}})", R"({"7":[]})", R"({"7":{}})",
                          R"({"7":{"state":"Terminated","exit_code":99999}})"})
    EXPECT_FALSE(parse_oarstat_json(bad)) << bad;
}

TEST(OarParse, TheSqlListingShowsEndedJobsWithTheirNames) {
  auto r = parse_oarstat_json(oar_fixture("oarstat_f_sql.out"));
  ASSERT_TRUE(r) << r.error();
  int ended = 0;
  for (auto& s : *r) ended += s.raw_state == "Terminated" || s.raw_state == "Error";
  EXPECT_GE(ended, 10);
}

}  // namespace
}  // namespace yard
