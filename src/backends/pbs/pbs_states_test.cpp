// PBS Pro's states, Exit_status codes and comments (pbs_job_attributes.7B, job.h) in Switchyard's terms.
#include "backends/pbs/pbs_states.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

NativeStatus st(std::string state, std::vector<std::string> events = {}, std::string comment = "") {
  NativeStatus s;
  s.raw_state = std::move(state);
  s.events = std::move(events);
  s.reason = std::move(comment);
  return s;
}

TEST(PbsStates, LiveStates) {
  EXPECT_EQ(map_pbs_state(st("Q")).state, JobState::Pending);
  EXPECT_EQ(map_pbs_state(st("H", {"substate=22"})).detail, "waiting for its dependencies");
  EXPECT_EQ(map_pbs_state(st("H", {"substate=20"})).detail, "held");
  EXPECT_EQ(map_pbs_state(st("W")).state, JobState::Pending);
  EXPECT_EQ(map_pbs_state(st("T")).state, JobState::Pending);
  EXPECT_EQ(map_pbs_state(st("R")).state, JobState::Running);
  EXPECT_EQ(map_pbs_state(st("B")).state, JobState::Running);
  EXPECT_EQ(map_pbs_state(st("E", {"Exit_status=0"})).state, JobState::Running);  // its end not recorded yet
  EXPECT_EQ(map_pbs_state(st("S")).detail, "suspended");
  EXPECT_EQ(map_pbs_state(st("M")).state, JobState::Unknown);
  auto odd = map_pbs_state(st("Z9"));
  EXPECT_EQ(odd.state, JobState::Unknown);
  EXPECT_EQ(odd.detail, "Z9");
}

TEST(PbsStates, EndsByExitStatusAndComment) {
  EXPECT_EQ(map_pbs_state(st("F", {"Exit_status=0", "substate=92"})).state, JobState::Completed);
  EXPECT_EQ(map_pbs_state(st("X", {"Exit_status=0"})).state, JobState::Completed);
  auto failed = map_pbs_state(st("F", {"Exit_status=3"}, "Job run at x and failed"));
  EXPECT_EQ(failed.state, JobState::Failed);
  EXPECT_EQ(failed.detail, "exit 3: Job run at x and failed");
  EXPECT_EQ(map_pbs_state(st("F", {"Exit_status=265"})).state, JobState::Failed);
  EXPECT_EQ(map_pbs_state(st("F", {"Exit_status=271", "substate=91"}, "Job run at x and terminated")).state,
            JobState::Cancelled);
  // Since OpenPBS 22.05: the limit in the code and the comment.
  EXPECT_EQ(map_pbs_state(st("F", {"Exit_status=-29"}, "Job run at x and exceeded resource walltime")).state, JobState::Timeout);
  EXPECT_EQ(map_pbs_state(st("F", {"Exit_status=-29"})).state, JobState::Timeout);
  EXPECT_EQ(map_pbs_state(st("F", {"Exit_status=-27"})).state, JobState::OutOfMemory);
  EXPECT_EQ(map_pbs_state(st("F", {"Exit_status=-26"})).state, JobState::OutOfMemory);
  EXPECT_EQ(map_pbs_state(st("F", {"Exit_status=-28"})).state, JobState::Timeout);
  EXPECT_EQ(map_pbs_state(st("F", {"Exit_status=-20"})).state, JobState::NodeFail);
  auto exec = map_pbs_state(st("F", {"Exit_status=-10"}));
  EXPECT_EQ(exec.state, JobState::Failed);
  EXPECT_NE(exec.detail.find("JOB_EXEC_FAILUID"), std::string::npos);
  // Older servers: SIGTERM at the walltime, told apart from a qdel by the time used.
  EXPECT_EQ(map_pbs_state(st("F", {"Exit_status=271", "walltime_exceeded"})).state, JobState::Timeout);
  EXPECT_EQ(map_pbs_state(st("F", {"Exit_status=271"})).state, JobState::Failed);
}

TEST(PbsStates, JobsThatNeverRan) {
  auto deleted = map_pbs_state(st("F", {"substate=91"}, "Not Running: Node is in an ineligible state: down and terminated"));
  EXPECT_EQ(deleted.state, JobState::Cancelled);
  auto dependent = map_pbs_state(st("F", {"substate=91"}, "Job deleted as result of dependency on job 12.s"));
  EXPECT_EQ(dependent.state, JobState::Cancelled);
  EXPECT_EQ(dependent.detail, "DependencyNeverSatisfied");
  // Ended with nothing to say how: never taken for a success.
  EXPECT_EQ(map_pbs_state(st("F", {"substate=92"})).state, JobState::Unknown);
}

}  // namespace
}  // namespace yard
