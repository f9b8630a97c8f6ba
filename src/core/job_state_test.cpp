#include "core/job_state.h"

#include <gtest/gtest.h>

namespace yard {

TEST(JobState, NamesRoundTrip) {
  for (auto s : {JobState::Pending, JobState::Running, JobState::Completed, JobState::Failed,
                 JobState::Cancelled, JobState::Timeout, JobState::OutOfMemory, JobState::NodeFail,
                 JobState::Lost, JobState::Unknown})
    EXPECT_EQ(parse_job_state(to_string(s)), s);
  EXPECT_FALSE(parse_job_state("DONE").has_value());
}

TEST(JobState, TerminalStatesAreFinal) {
  EXPECT_FALSE(is_legal_transition(JobState::Completed, JobState::Running));
  EXPECT_FALSE(is_legal_transition(JobState::Cancelled, JobState::Completed));
  EXPECT_FALSE(is_legal_transition(JobState::Timeout, JobState::Pending));
  EXPECT_TRUE(is_terminal(JobState::Lost));
  EXPECT_FALSE(is_terminal(JobState::Unknown));
}

TEST(JobState, LegalPaths) {
  EXPECT_TRUE(is_legal_transition(JobState::Pending, JobState::Running));
  EXPECT_TRUE(is_legal_transition(JobState::Pending, JobState::Cancelled));
  EXPECT_FALSE(is_legal_transition(JobState::Pending, JobState::Completed));
  EXPECT_TRUE(is_legal_transition(JobState::Running, JobState::Timeout));
  EXPECT_TRUE(is_legal_transition(JobState::Running, JobState::Pending));  // requeue
  EXPECT_TRUE(is_legal_transition(JobState::Unknown, JobState::Completed));
}

}  // namespace yard
