// HTCondor's readers and state map, on the published samples (tests/fixtures/htcondor:
// HTCondor's quick-start guide and the unit test of its JSON ad writer) and on ads as
// condor_q and condor_history print them.
#include "backends/htcondor/htcondor_parse.h"

#include <gtest/gtest.h>

#include "backends/htcondor/htcondor_errors.h"
#include "backends/htcondor/htcondor_states.h"
#include "core/file_text.h"

namespace yard {
namespace {

std::string fixture(const std::string& name) {
  auto text = read_file(std::string(YARD_HTCONDOR_FIXTURES) + "/" + name);
  EXPECT_TRUE(text) << text.error();
  return text ? *text : std::string();
}

// The text of the C++ raw string named `name` in the unit test's file.
std::string raw_string(const std::string& file, const std::string& name) {
  const auto at = file.find(name);
  const auto open = file.find("R\"(", at);
  const auto close = file.find(")\"", open);
  EXPECT_NE(at, std::string::npos) << name;
  return file.substr(open + 3, close - open - 3);
}

TEST(HtcondorParse, SubmitAnswersTerseAndPlain) {
  EXPECT_EQ(*parse_condor_submit(fixture("condor_submit_quickstart.txt")), "6");
  EXPECT_EQ(*parse_condor_submit("7.0 - 7.9\n"), "7");
  EXPECT_EQ(*parse_condor_submit("Submitting job(s)...\n3 job(s) submitted to cluster 12.\n"), "12");
  auto none = parse_condor_submit("\nERROR: Failed to connect to local queue manager\n");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().find("printed no cluster"), std::string::npos) << none.error();
}

TEST(HtcondorParse, JsonAndJsonLinesOfTheUnitTest) {
  const std::string file = fixture("json_and_jsonl_ad_format_unit_test.txt");
  for (const char* name : {"two_json_ads", "two_jsonl_ads"}) {
    auto ads = parse_condor_ads(raw_string(file, name));
    ASSERT_TRUE(ads) << name << ": " << ads.error();
    ASSERT_EQ(ads->size(), 2u) << name;
    EXPECT_EQ((*ads)[0].native_id, "1.2");
    EXPECT_EQ((*ads)[0].submission_id, "1");
    EXPECT_EQ((*ads)[0].raw_state, "5");
    EXPECT_EQ((*ads)[1].native_id, "2.1");
    EXPECT_EQ(map_htcondor_state((*ads)[1]).state, JobState::Cancelled);
  }
}

TEST(HtcondorParse, NothingPrintedIsNoJobAndBrokenTextIsNamed) {
  auto none = parse_condor_ads("");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  auto broken = parse_condor_ads("[\n{\n  \"ClusterId\": 1,\n");
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error().find("line 1"), std::string::npos) << broken.error();
  auto no_id = parse_condor_ads("[\n{\n  \"JobStatus\": 1\n}\n]\n");
  ASSERT_FALSE(no_id);
  EXPECT_NE(no_id.error().find("ClusterId"), std::string::npos) << no_id.error();
}

std::vector<NativeStatus> ads(const std::string& json) {
  auto r = parse_condor_ads(json);
  EXPECT_TRUE(r) << r.error();
  return r ? *r : std::vector<NativeStatus>{};
}

TEST(HtcondorStates, ExitsSignalsHoldsAndEvictions) {
  auto all = ads(R"json([
{
  "ClusterId": 6,
  "CompletionDate": 1700000100,
  "ExitBySignal": false,
  "ExitCode": 0,
  "JobBatchName": "yard-yd0123456789abcdef-train",
  "JobStartDate": 1700000000,
  "JobStatus": 4,
  "ProcId": 0,
  "RemoteHost": "slot1@node7"
}
,
{
  "ClusterId": 6,
  "ExitBySignal": true,
  "ExitSignal": 9,
  "JobStatus": 4,
  "ProcId": 1
}
,
{
  "ClusterId": 6,
  "ExitBySignal": false,
  "ExitCode": 3,
  "JobStatus": 4,
  "ProcId": 2
}
,
{
  "ClusterId": 7,
  "HoldReason": "The job exceeded allowed job duration of 0+00:01:00",
  "HoldReasonCode": 46,
  "HoldReasonSubCode": 0,
  "JobStatus": 5,
  "ProcId": 0
}
,
{
  "ClusterId": 7,
  "HoldReason": "memory usage exceeded request_memory",
  "HoldReasonCode": 34,
  "HoldReasonSubCode": 102,
  "JobStatus": 5,
  "ProcId": 1
}
,
{
  "ClusterId": 7,
  "HoldReason": "via condor_hold (by user alice)",
  "HoldReasonCode": 1,
  "HoldReasonSubCode": 0,
  "JobStatus": 5,
  "ProcId": 2
}
,
{
  "ClusterId": 8,
  "JobStatus": 1,
  "NumJobStarts": 1,
  "ProcId": 0,
  "ExitCode": "\/Expr(undefined)\/"
}
,
{
  "ClusterId": 8,
  "JobStatus": 3,
  "ProcId": 1,
  "RemoveReason": "via condor_rm (by user alice)"
}
,
{
  "ClusterId": 8,
  "JobStatus": 9,
  "ProcId": 2
}
]
)json");
  ASSERT_EQ(all.size(), 9u);
  EXPECT_EQ(all[0].name, "yard-yd0123456789abcdef-train");
  EXPECT_EQ(all[0].node_list, "node7");
  EXPECT_EQ(all[0].start_time, 1700000000.0);
  EXPECT_EQ(all[0].end_time, 1700000100.0);
  EXPECT_EQ(map_htcondor_state(all[0]).state, JobState::Completed);
  EXPECT_EQ(all[1].signal, 9);
  EXPECT_FALSE(all[1].exit_code);
  EXPECT_EQ(map_htcondor_state(all[1]).state, JobState::Failed);
  EXPECT_EQ(all[2].exit_code, 3);
  EXPECT_EQ(map_htcondor_state(all[2]).state, JobState::Failed);
  EXPECT_EQ(map_htcondor_state(all[3]).state, JobState::Timeout);
  EXPECT_EQ(map_htcondor_state(all[4]).state, JobState::OutOfMemory);
  EXPECT_NE(map_htcondor_state(all[4]).detail.find("34/102"), std::string::npos);
  EXPECT_EQ(map_htcondor_state(all[5]).state, JobState::Pending);  // a person's hold: released later
  EXPECT_FALSE(all[6].exit_code);                                  // an expression is no value
  EXPECT_EQ(map_htcondor_state(all[6]).state, JobState::Pending);
  EXPECT_NE(map_htcondor_state(all[6]).detail.find("evicted"), std::string::npos);
  EXPECT_EQ(map_htcondor_state(all[7]).state, JobState::Cancelled);
  EXPECT_NE(map_htcondor_state(all[7]).detail.find("condor_rm"), std::string::npos);
  EXPECT_EQ(map_htcondor_state(all[8]).state, JobState::Unknown);  // never taken for success
  EXPECT_EQ(map_htcondor_state(all[8]).detail, "JobStatus 9");
}

TEST(HtcondorErrors, AnUnreachableScheddIsTransientARefusalIsNot) {
  EXPECT_TRUE(htcondor_transient_failure(1, "\nERROR: Failed to connect to local queue manager\nCEDAR:6001\n"));
  EXPECT_FALSE(htcondor_transient_failure(1, "\nERROR: on Line 3 of submit file: bad value\n"));
  EXPECT_FALSE(htcondor_transient_failure(0, "To monitor your job(s), run: condor_watch_q -clusters 6"));
}

}  // namespace
}  // namespace yard
