// LSF's states and TERM_* exit reasons in Switchyard's terms.
#include "backends/lsf/lsf_states.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

NativeStatus st(std::string state, std::string reason = "", std::optional<int> exit = std::nullopt,
                std::optional<int> signal = std::nullopt) {
  NativeStatus s;
  s.raw_state = std::move(state);
  s.reason = std::move(reason);
  s.exit_code = exit;
  s.signal = signal;
  return s;
}

TEST(LsfStates, EveryState) {
  EXPECT_EQ(map_lsf_state(st("PEND", "Job dependency condition not satisfied")).state, JobState::Pending);
  auto never = map_lsf_state(st("PEND", "Dependency condition invalid or never satisfied"));
  EXPECT_EQ(never.state, JobState::Pending);
  EXPECT_NE(never.detail.find("DependencyNeverSatisfied"), std::string::npos);  // the engine cancels it
  EXPECT_EQ(map_lsf_state(st("PSUSP")).detail, "held");
  EXPECT_EQ(map_lsf_state(st("RUN")).state, JobState::Running);
  EXPECT_EQ(map_lsf_state(st("SSUSP")).state, JobState::Running);
  EXPECT_EQ(map_lsf_state(st("DONE")).state, JobState::Completed);
  EXPECT_EQ(map_lsf_state(st("PERR")).state, JobState::Failed);
  EXPECT_EQ(map_lsf_state(st("EXIT", "", 3)).detail, "exit 3");
  EXPECT_EQ(map_lsf_state(st("EXIT", "TERM_RUNLIMIT: job killed after reaching LSF run time limit")).state, JobState::Timeout);
  EXPECT_EQ(map_lsf_state(st("EXIT", "TERM_MEMLIMIT: job killed after reaching LSF memory usage limit")).state,
            JobState::OutOfMemory);
  EXPECT_EQ(map_lsf_state(st("EXIT", "TERM_OWNER: job killed by owner")).state, JobState::Cancelled);
  auto preempted = map_lsf_state(st("EXIT", "TERM_PREEMPT: job killed after preemption"));
  EXPECT_EQ(preempted.state, JobState::Failed);
  EXPECT_EQ(preempted.detail.rfind("preempted", 0), 0u);  // --requeue acts on it
  EXPECT_EQ(map_lsf_state(st("EXIT", "TERM_REMOVE_HUNG_JOB: job removed from the LSF system")).state, JobState::NodeFail);
  EXPECT_EQ(map_lsf_state(st("EXIT", "", std::nullopt, 9)).detail, "killed by signal 9");
  for (const char* unknown : {"UNKWN", "ZOMBI", "WHAT"}) {
    auto m = map_lsf_state(st(unknown));
    EXPECT_EQ(m.state, JobState::Unknown);
    EXPECT_EQ(m.detail, unknown);
  }
}

}  // namespace
}  // namespace yard
