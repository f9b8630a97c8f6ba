// Torque's states and exit_status codes (qstat.1, pbs_job.h) in Switchyard's terms.
#include "backends/torque/torque_states.h"

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

TEST(TorqueStates, LiveAndEndedStates) {
  for (const char* pending : {"Q", "H", "W", "T"}) EXPECT_EQ(map_torque_state(st(pending)).state, JobState::Pending);
  EXPECT_EQ(map_torque_state(st("R", {"exit_status=-3"})).state, JobState::Running);
  EXPECT_EQ(map_torque_state(st("E")).state, JobState::Running);
  EXPECT_EQ(map_torque_state(st("S")).detail, "suspended");
  EXPECT_EQ(map_torque_state(st("C", {"exit_status=0"})).state, JobState::Completed);
  EXPECT_EQ(map_torque_state(st("C", {"exit_status=2"})).state, JobState::Failed);
  EXPECT_EQ(map_torque_state(st("C", {"exit_status=265"})).state, JobState::Failed);
  EXPECT_EQ(map_torque_state(st("C", {"exit_status=271", "walltime_exceeded"})).state, JobState::Timeout);
  EXPECT_EQ(map_torque_state(st("C", {"exit_status=-11"})).state, JobState::Timeout);  // not PBS Pro's rerun
  EXPECT_EQ(map_torque_state(st("C", {"exit_status=-12"})).state, JobState::Timeout);
  EXPECT_EQ(map_torque_state(st("C", {"exit_status=-10"})).state, JobState::OutOfMemory);
  auto cmd = map_torque_state(st("C", {"exit_status=-8"}));
  EXPECT_EQ(cmd.state, JobState::Failed);
  EXPECT_NE(cmd.detail.find("JOB_EXEC_CMDFAIL"), std::string::npos);
  EXPECT_EQ(map_torque_state(st("C", {}, "Job deleted by user")).state, JobState::Cancelled);
  EXPECT_EQ(map_torque_state(st("C")).state, JobState::Cancelled);  // never ran: deleted
  auto dependent = map_torque_state(st("C", {"exit_status=271"}, "Job deleted as result of dependency on job 12.s"));
  EXPECT_EQ(dependent.state, JobState::Cancelled);
  EXPECT_EQ(dependent.detail, "DependencyNeverSatisfied");
  auto odd = map_torque_state(st("Z"));
  EXPECT_EQ(odd.state, JobState::Unknown);
  EXPECT_EQ(odd.detail, "Z");
}

}  // namespace
}  // namespace yard
