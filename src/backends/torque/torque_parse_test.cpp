// Torque's readers on the published samples (tests/fixtures/torque).
#include "backends/torque/torque_parse.h"

#include <gtest/gtest.h>

#include <map>

#include "backends/torque/torque_errors.h"
#include "backends/torque/torque_states.h"
#include "core/file_text.h"

namespace yard {
namespace {

std::string fixture(const std::string& name) {
  auto text = read_file(std::string(YARD_TORQUE_FIXTURES) + "/" + name);
  EXPECT_TRUE(text) << text.error();
  return text ? *text : std::string();
}

std::map<std::string, NativeStatus> by_id(const std::vector<NativeStatus>& v) {
  std::map<std::string, NativeStatus> m;
  for (auto& s : v) m[s.native_id] = s;
  return m;
}

TEST(TorqueParse, AQueueWithRunningQueuedCompletedJobsAndAnArraysSubjobs) {
  auto r = parse_torque_qstat_xml(fixture("qstat_x_fyrd_torque.xml"));
  ASSERT_TRUE(r) << r.error();
  auto jobs = by_id(*r);
  ASSERT_EQ(jobs.size(), 6u);
  // Running, with the exit_status of an earlier start that failed: not its end.
  const NativeStatus& running = jobs.at("665199");
  EXPECT_EQ(running.raw_state, "R");
  EXPECT_FALSE(running.exit_code);
  EXPECT_EQ(map_torque_state(running).state, JobState::Running);
  EXPECT_EQ(running.node_list, "node01");
  ASSERT_TRUE(running.start_time);
  EXPECT_EQ(*running.start_time, 1479339665);
  EXPECT_EQ(map_torque_state(jobs.at("667999")).state, JobState::Pending);
  const NativeStatus& done = jobs.at("673174");
  EXPECT_EQ(done.exit_code, 0);
  EXPECT_EQ(map_torque_state(done).state, JobState::Completed);
  ASSERT_TRUE(done.end_time);
  EXPECT_EQ(*done.end_time, 1480547422);
  const NativeStatus& subjob = jobs.at("673175[19]");
  EXPECT_EQ(subjob.submission_id, "673175");
  EXPECT_EQ(subjob.name, "t.sh-19");
  EXPECT_EQ(map_torque_state(subjob).state, JobState::Completed);
  EXPECT_TRUE(jobs.count("673175[]"));
}

TEST(TorqueParse, AQueuedAndACompletedJobWithRawNewlinesInAValue) {
  auto queued = parse_torque_qstat_xml(fixture("qstat_x_batcheuphoria_outputQueued.xml"));
  ASSERT_TRUE(queued) << queued.error();
  ASSERT_EQ(queued->size(), 1u);
  EXPECT_EQ((*queued)[0].native_id, "4499334");
  EXPECT_EQ(map_torque_state((*queued)[0]).state, JobState::Pending);
  auto finished = parse_torque_qstat_xml(fixture("qstat_x_batcheuphoria_outputFinished.xml"));
  ASSERT_TRUE(finished) << finished.error();
  ASSERT_EQ(finished->size(), 1u);
  EXPECT_EQ((*finished)[0].native_id, "4564045");
  EXPECT_EQ(map_torque_state((*finished)[0]).state, JobState::Completed);
  EXPECT_EQ((*finished)[0].node_list, "denbi5-int");
}

TEST(TorqueParse, NoJobAtAllAndOneDocumentPerIdAsked) {
  for (const char* none : {"", "\n", "<?xml version=\"1.0\"?>\n", "<?xml version=\"1.0\"?>\n<Data></Data>\n", "<Data/>"}) {
    auto r = parse_torque_qstat_xml(none);
    ASSERT_TRUE(r) << none << ": " << r.error();
    EXPECT_TRUE(r->empty()) << none;
  }
  auto two = parse_torque_qstat_xml(
      "<?xml version=\"1.0\"?>\n<Data><Job><Job_Id>1.s</Job_Id><job_state>R</job_state></Job></Data>\n"
      "<Data><Job><Job_Id>2[3].s</Job_Id><job_state>C</job_state><exit_status>-11</exit_status></Job></Data>\n");
  ASSERT_TRUE(two) << two.error();
  ASSERT_EQ(two->size(), 2u);
  EXPECT_EQ((*two)[1].native_id, "2[3]");
  EXPECT_EQ(map_torque_state((*two)[1]).state, JobState::Timeout);  // Torque's -11: its walltime
  EXPECT_FALSE(parse_torque_qstat_xml("qstat: cannot connect to server s\n"));
  EXPECT_FALSE(parse_torque_qstat_xml("<Data><Job><Job_Id>1.s</Job_Id>"));
  EXPECT_FALSE(parse_torque_qstat_xml("<Data><Job><Job_Id>x.s</Job_Id></Job></Data>"));
  EXPECT_TRUE(torque_usable_despite(153, "qstat: Unknown Job Id Error 3685292.mgt.meerkat.mcri.edu.au\n"));
  EXPECT_FALSE(torque_usable_despite(153, "qstat: cannot connect to server s\n"));
  EXPECT_TRUE(torque_transient_failure(1, "qstat: cannot connect to server s (errno=111) Connection refused\n"));
}

TEST(TorqueParse, QstatFullTextOfACompletedJobAndOfASubjobDeletedForItsDependency) {
  auto done = parse_torque_qstat_full(fixture("qstat_f_mavis_0.txt"));
  ASSERT_TRUE(done) << done.error();
  ASSERT_EQ(done->size(), 1u);
  EXPECT_EQ((*done)[0].native_id, "9");
  EXPECT_EQ((*done)[0].exit_code, 0);
  ASSERT_TRUE((*done)[0].start_time && (*done)[0].end_time);
  EXPECT_EQ(*(*done)[0].end_time - *(*done)[0].start_time, 60);
  EXPECT_EQ(map_torque_state((*done)[0]).state, JobState::Completed);
  auto deleted = parse_torque_qstat_full(fixture("qstat_f_mavis_1.txt"));
  ASSERT_TRUE(deleted) << deleted.error();
  ASSERT_EQ(deleted->size(), 1u);
  const NativeStatus& s = (*deleted)[0];
  EXPECT_EQ(s.native_id, "48[1]");
  EXPECT_EQ(s.reason,
            "Job 48[].torque01.bcgsc.ca deleted because its dependency of array 43[].torque01.bcgsc.ca can never be "
            "satisfied");
  const auto mapped = map_torque_state(s);
  EXPECT_EQ(mapped.state, JobState::Cancelled);
  EXPECT_EQ(mapped.detail, "DependencyNeverSatisfied");
}

}  // namespace
}  // namespace yard
