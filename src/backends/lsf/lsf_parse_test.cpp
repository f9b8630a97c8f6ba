// LSF's readers on the published samples (tests/fixtures/lsf: IBM's documentation, and
// output quoted by ERT, Nextflow, Toil, BatchEuphoria).
#include "backends/lsf/lsf_parse.h"

#include <gtest/gtest.h>

#include <sstream>

#include "backends/lsf/lsf_errors.h"
#include "backends/lsf/lsf_states.h"
#include "core/file_text.h"

namespace yard {
namespace {

std::string fixture(const std::string& name) {
  auto text = read_file(std::string(YARD_LSF_FIXTURES) + "/" + name);
  EXPECT_TRUE(text) << text.error();
  return text ? *text : std::string();
}

// The quoted lines of the file of real-world messages, without their source comments.
std::vector<std::string> messages() {
  std::vector<std::string> lines;
  std::istringstream in(fixture("bsub_bkill_bjobs_messages_real_world.txt"));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto comment = line.find("  #");
    if (comment != std::string::npos) line = line.substr(0, comment);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

TEST(LsfParse, BsubsAnswersWithOrWithoutDefaultQueuePeriodOrABannerFirst) {
  const auto lines = messages();
  EXPECT_EQ(*parse_bsub(lines.at(0)), "2329803");
  EXPECT_EQ(*parse_bsub(lines.at(1)), "39605914");
  EXPECT_EQ(*parse_bsub(lines.at(2)), "607844");                     // no period
  EXPECT_EQ(*parse_bsub(lines.at(3) + "\n" + lines.at(4)), "2861772");  // a site's line first
  // Refusals (exit 255 with these words) are no id; the passing troubles are retried.
  for (std::size_t i = 5; i <= 10; ++i) {
    EXPECT_FALSE(parse_bsub(lines.at(i))) << lines.at(i);
    EXPECT_NE(lines.at(i).find("Job not submitted"), std::string::npos);
    EXPECT_FALSE(lsf_transient_failure(255, lines.at(i))) << lines.at(i);
  }
  EXPECT_TRUE(lsf_transient_failure(255, lines.at(11)));  // Request from non-LSF host rejected
  EXPECT_TRUE(lsf_transient_failure(255, "Failed in an LSF library call: Failed in sending/receiving a message"));
  EXPECT_FALSE(parse_bsub("Job <12x> is submitted to queue <q>."));
}

TEST(LsfParse, BjobsUnknownIdsLeaveTheListingUsable) {
  EXPECT_TRUE(lsf_usable_despite(255, "Job <123> is not found\n"));
  EXPECT_TRUE(lsf_usable_despite(255, "Job <1> is not found\nJob <2> is not found\n"));
  EXPECT_TRUE(lsf_usable_despite(255, "No unfinished job found\n"));
  EXPECT_FALSE(lsf_usable_despite(255, "Job <1> is not found\nFailed in an LSF library call\n"));
  EXPECT_FALSE(lsf_usable_despite(0, "Job <1> is not found\n"));
  EXPECT_TRUE(parse_bjobs_json("No unfinished job found\n", 0)->empty());
  EXPECT_FALSE(parse_bjobs_json("bjobs: illegal option\n", 0));
}

TEST(LsfParse, BjobsJsonEveryValueAStringTimesWithoutAYear) {
  // 2019-06-01: "Dec 28 19:56" is of the year before.
  std::tm now_tm{};
  now_tm.tm_year = 119, now_tm.tm_mon = 5, now_tm.tm_mday = 1, now_tm.tm_hour = 12, now_tm.tm_isdst = -1;
  const std::time_t now = std::mktime(&now_tm);
  auto r = parse_bjobs_json(fixture("batcheuphoria_queryExtendedJobStateByIdTest.json"), now);
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->size(), 1u);
  const NativeStatus& s = (*r)[0];
  EXPECT_EQ(s.native_id, "22005");
  EXPECT_EQ(s.raw_state, "DONE");
  EXPECT_EQ(s.exit_code, 0);  // DONE with an empty EXIT_CODE
  EXPECT_EQ(s.node_list, "exec-host");
  ASSERT_TRUE(s.start_time && s.end_time);
  std::tm start{};
  const std::time_t t = static_cast<std::time_t>(*s.start_time);
  ::localtime_r(&t, &start);
  EXPECT_EQ(start.tm_year, 118);
  EXPECT_EQ(start.tm_mon, 11);
  EXPECT_EQ(map_lsf_state(s).state, JobState::Completed);
  auto many = parse_bjobs_json(fixture("batcheuphoria_convertBJobsResultLinesToResultMapTest.json"), now);
  ASSERT_TRUE(many) << many.error();
  ASSERT_EQ(many->size(), 6u);
  EXPECT_EQ(map_lsf_state((*many)[0]).state, JobState::Failed);
  EXPECT_EQ(map_lsf_state((*many)[5]).state, JobState::Completed);
  EXPECT_TRUE(parse_bjobs_json(fixture("batcheuphoria_queryExtendedJobStateByIdWithoutListsTest.json"), now));
  // A banner before the JSON, array elements by their names, records of unknown ids.
  auto arr = parse_bjobs_json(
      "LSF is processing your request. Please wait ...\n"
      "{\"COMMAND\":\"bjobs\",\"JOBS\":3,\"RECORDS\":[{\"JOBID\":\"7\",\"JOB_NAME\":\"yard-x[3]\",\"STAT\":\"EXIT\","
      "\"EXIT_CODE\":\"137\",\"EXIT_REASON\":\"\"},{\"ERROR\":\"Job <8> is not found\"},{\"JOBID\":\"9\",\"STAT\":\"EXIT\","
      "\"EXIT_CODE\":\"143\",\"EXIT_REASON\":\"TERM_RUNLIMIT: job killed after reaching LSF run time limit\"}]}\n",
      now);
  ASSERT_TRUE(arr) << arr.error();
  ASSERT_EQ(arr->size(), 2u);
  EXPECT_EQ((*arr)[0].native_id, "7[3]");
  EXPECT_EQ((*arr)[0].submission_id, "7");
  EXPECT_EQ((*arr)[0].signal, 9);
  EXPECT_EQ(map_lsf_state((*arr)[1]).state, JobState::Timeout);
  EXPECT_FALSE(parse_bjobs_json("{\"RECORDS\":[{\"JOBID\":\"x\"}]}", now));
  EXPECT_FALSE(parse_bjobs_json("{\"RECORDS\":{}}", now));
  EXPECT_FALSE(parse_bjobs_json("{\"RECORDS\":[", now));
}

TEST(LsfParse, TheWideTableWithNamesOverflowingTheirColumnAndBannersFirst) {
  auto r = parse_bjobs_table(fixture("bjobs_w_nextflow_test.txt"));
  ASSERT_TRUE(r) << r.error();
  ASSERT_GE(r->size(), 9u);
  EXPECT_EQ((*r)[0].native_id, "5085109");
  EXPECT_EQ((*r)[0].raw_state, "RUN");
  EXPECT_EQ((*r)[1].name, "phenix.autobuild autobuild_config.eff");
  EXPECT_EQ((*r)[3].raw_state, "PSUSP");
  EXPECT_EQ(map_lsf_state((*r)[3]).state, JobState::Pending);
  EXPECT_EQ(map_lsf_state((*r)[5]).state, JobState::Unknown);  // UNKWN: not an end
  auto banner = parse_bjobs_table(fixture("bjobs_w_extra_header_lines_nextflow_test.txt"));
  ASSERT_TRUE(banner) << banner.error();
  ASSERT_FALSE(banner->empty());
  EXPECT_EQ((*banner)[0].native_id, "5157393");
  // IBM's documentation: a listing with an unknown id after it.
  const std::string docs = fixture("ibm_docs_bjobs_exit_codes_LSB_BJOBS_CONSISTENT_EXIT_CODE.txt");
  const auto at = docs.find("bjobs 111 123\n") + 14;
  auto both = parse_bjobs_table(docs.substr(at, docs.find("echo", at) - at));
  ASSERT_TRUE(both) << both.error();
  ASSERT_EQ(both->size(), 1u);
  EXPECT_EQ((*both)[0].native_id, "111");
  EXPECT_EQ((*both)[0].name, "myjob");
  const std::string kills = fixture("ibm_docs_bkill_multiple.txt");
  EXPECT_NE(kills.find("Job <267> is being terminated"), std::string::npos);
}

}  // namespace
}  // namespace yard
