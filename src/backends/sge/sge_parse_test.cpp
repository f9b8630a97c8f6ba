#include "backends/sge/sge_parse.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/file_text.h"

namespace yard {
namespace {

std::string fixture(const std::string& name) {
  auto text = read_file(std::string(YARD_SGE_FIXTURES) + "/" + name);
  EXPECT_TRUE(text) << text.error();
  return text ? *text : std::string();
}

TEST(SgeParse, QsubTerseGivesTheJobIdAlsoOfAnArray) {
  const std::string single = fixture("qsub_terse.out");
  EXPECT_EQ(*parse_qsub_terse(single), single.substr(0, single.find('\n')));
  auto array = parse_qsub_terse(fixture("qsub_terse_array.out"));
  ASSERT_TRUE(array) << array.error();
  EXPECT_EQ(fixture("qsub_terse_array.out").rfind(*array + ".", 0), 0u);
  EXPECT_EQ(*parse_qsub_terse("12.1-6:1\n"), "12");
  for (const char* bad : {"", "\n", "Your job 5 (\"true\") has been submitted\n", "12x\n", "-3\n"}) {
    auto r = parse_qsub_terse(bad);
    EXPECT_FALSE(r) << bad;
    if (!r) {
      EXPECT_NE(r.error().find("qsub -terse printed"), std::string::npos);
    }
  }
}

TEST(SgeParse, QstatXmlListsRunningPendingHeldAndErrorJobsAndExpandsPendingArrays) {
  auto r = parse_qstat_xml(fixture("qstat_xml_mixed.out"));
  ASSERT_TRUE(r) << r.error();
  std::map<std::string, const NativeStatus*> by_name_state;
  int pending_elements = 0;
  std::set<std::string> element_ids;
  for (const auto& s : *r) {
    by_name_state[s.name + "/" + s.raw_state] = &s;
    if (s.name == "yard-array") {
      pending_elements += s.raw_state == "qw";
      element_ids.insert(s.native_id);
      EXPECT_NE(s.native_id.find('.'), std::string::npos) << s.native_id;
    }
  }
  ASSERT_TRUE(by_name_state.count("yard-exit3/r"));
  EXPECT_TRUE(by_name_state.at("yard-exit3/r")->start_time.has_value());
  EXPECT_EQ(by_name_state.at("yard-exit3/r")->node_list, "vm");
  EXPECT_TRUE(by_name_state.count("yard-running/t"));
  EXPECT_TRUE(by_name_state.count("yard-badwd/Eqw"));
  EXPECT_TRUE(by_name_state.count("yard-held/hqw"));
  EXPECT_TRUE(by_name_state.count("yard-after/hqw"));
  EXPECT_EQ(pending_elements, 4);  // <tasks>3-6:1</tasks>
  EXPECT_EQ(element_ids.size(), 6u);  // and the two running ones, each an entry of its own
}

TEST(SgeParse, QstatXmlOfNothingOrUnknownJobsIsEmptyAndGarbageIsAnError) {
  auto empty = parse_qstat_xml(fixture("qstat_xml_empty.out"));
  ASSERT_TRUE(empty) << empty.error();
  EXPECT_TRUE(empty->empty());
  auto unknown = parse_qstat_xml(fixture("qstat_j_xml_unknown.out"));
  ASSERT_TRUE(unknown) << unknown.error();
  EXPECT_TRUE(unknown->empty());
  auto garbage = parse_qstat_xml("<job_info><queue_info><job_list>");
  ASSERT_FALSE(garbage);
  EXPECT_NE(garbage.error().find("malformed XML at byte"), std::string::npos) << garbage.error();
  auto nonumber = parse_qstat_xml("<job_info><queue_info><job_list><state>r</state></job_list></queue_info></job_info>");
  ASSERT_FALSE(nonumber);
  EXPECT_NE(nonumber.error().find("job entry 1 has no job number"), std::string::npos) << nonumber.error();
  EXPECT_FALSE(parse_qstat_xml("<something/>"));
}

TEST(SgeParse, QacctGivesExitStatusFailureAndSignal) {
  auto done = parse_qacct(fixture("qacct_completed.out"));
  ASSERT_TRUE(done) << done.error();
  ASSERT_EQ(done->size(), 1u);
  EXPECT_EQ((*done)[0].raw_state, "failed 0");
  EXPECT_EQ((*done)[0].exit_code, 0);
  EXPECT_EQ((*done)[0].name, "yard-plain");
  EXPECT_TRUE((*done)[0].start_time && (*done)[0].end_time);
  EXPECT_LE(*(*done)[0].start_time, *(*done)[0].end_time);

  auto exit3 = parse_qacct(fixture("qacct_exit3.out"));
  ASSERT_TRUE(exit3);
  EXPECT_EQ((*exit3)[0].exit_code, 3);

  auto killed = parse_qacct(fixture("qacct_deleted_running.out"));
  ASSERT_TRUE(killed);
  EXPECT_EQ((*killed)[0].raw_state, "failed 100");
  EXPECT_EQ((*killed)[0].reason, "assumedly after job");
  EXPECT_EQ((*killed)[0].signal, 9);
  EXPECT_FALSE((*killed)[0].exit_code);

  auto hrt = parse_qacct(fixture("qacct_hrt.out"));
  ASSERT_TRUE(hrt);
  EXPECT_EQ((*hrt)[0].raw_state, "failed 37");
  EXPECT_EQ((*hrt)[0].signal, 9);
}

TEST(SgeParse, QacctOfAnArrayHasOneRecordPerElement) {
  auto r = parse_qacct(fixture("qacct_array.out"));
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->size(), 6u);
  std::set<std::string> ids;
  for (const auto& s : *r) ids.insert(s.native_id.substr(s.native_id.find('.') + 1));
  EXPECT_EQ(ids, (std::set<std::string>{"1", "2", "3", "4", "5", "6"}));
}

TEST(SgeParse, QacctRecordsThatDoNotHoldTogetherAreErrorsNamingTheField) {
  const std::string sep = "==============================================================\n";
  auto no_number = parse_qacct(sep + "jobname x\nfailed 0\nexit_status 0\n");
  ASSERT_FALSE(no_number);
  EXPECT_NE(no_number.error().find("record 1 has no job number"), std::string::npos) << no_number.error();
  auto bad_exit = parse_qacct(sep + "jobnumber 4\nfailed 0\nexit_status lots\n");
  ASSERT_FALSE(bad_exit);
  EXPECT_NE(bad_exit.error().find("job 4 has exit_status 'lots'"), std::string::npos) << bad_exit.error();
  auto bad_task = parse_qacct(sep + "jobnumber 4\ntaskid x\nfailed 0\nexit_status 0\n");
  ASSERT_FALSE(bad_task);
  EXPECT_TRUE(parse_qacct("")->empty());
}

TEST(SgeParse, TaskRangesAsGridEngineWritesThem) {
  EXPECT_EQ(*parse_task_ranges("3-6:1"), (std::vector<long long>{3, 4, 5, 6}));
  EXPECT_EQ(*parse_task_ranges("1,3,5-9:2"), (std::vector<long long>{1, 3, 5, 7, 9}));
  EXPECT_EQ(*parse_task_ranges("7"), (std::vector<long long>{7}));
  EXPECT_FALSE(parse_task_ranges("6-3"));
  EXPECT_FALSE(parse_task_ranges("1-5:0"));
  EXPECT_FALSE(parse_task_ranges("x"));
  auto huge = parse_task_ranges("1-9223372036854775807");
  ASSERT_FALSE(huge);
  EXPECT_NE(huge.error().find("more than"), std::string::npos);
}

}  // namespace
}  // namespace yard
