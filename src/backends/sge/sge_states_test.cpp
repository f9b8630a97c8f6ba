#include "backends/sge/sge_states.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

MappedState map(const std::string& raw, std::optional<int> exit_code = std::nullopt, const std::string& reason = "") {
  NativeStatus s;
  s.raw_state = raw;
  s.exit_code = exit_code;
  s.reason = reason;
  return map_sge_state(s);
}

TEST(SgeStates, EveryQstatLetterCombinationMaps) {
  EXPECT_EQ(map("qw").state, JobState::Pending);
  EXPECT_EQ(map("hqw").state, JobState::Pending);
  EXPECT_EQ(map("hqw").detail, "held");
  EXPECT_EQ(map("r").state, JobState::Running);
  EXPECT_EQ(map("t").state, JobState::Running);
  EXPECT_EQ(map("Rr").state, JobState::Running);
  EXPECT_EQ(map("Rq").state, JobState::Pending);  // rescheduled, queued again
  EXPECT_EQ(map("s").state, JobState::Running);
  EXPECT_EQ(map("S").detail, "suspended");
  EXPECT_EQ(map("T").state, JobState::Running);
  EXPECT_EQ(map("dr").state, JobState::Running);
  EXPECT_EQ(map("dr").detail, "being deleted");
  EXPECT_EQ(map("dt").state, JobState::Running);
  EXPECT_EQ(map("Eqw").state, JobState::Pending);
  EXPECT_NE(map("Eqw").detail.find("error (Eqw)"), std::string::npos);
  EXPECT_EQ(map("hEqw").state, JobState::Pending);
}

TEST(SgeStates, UnknownLettersAndFinishedJobsAreUnknownWithTheRawTextNeverSuccess) {
  for (const char* raw : {"z", "x", "", "Q", "r r", "qw!", "d", "24\n"}) {
    const MappedState m = map(raw);
    EXPECT_EQ(m.state, JobState::Unknown) << raw;
    EXPECT_EQ(m.detail, raw) << raw;
  }
}

TEST(SgeStates, QacctOutcomes) {
  EXPECT_EQ(map("failed 0", 0).state, JobState::Completed);
  EXPECT_EQ(map("failed 0", 3).state, JobState::Failed);
  EXPECT_EQ(map("failed 0", 3).detail, "exit 3");
  EXPECT_EQ(map("failed 37", std::nullopt, "qmaster enforced h_rt, h_cpu, or h_vmem limit").state, JobState::Timeout);
  const MappedState killed = map("failed 100", std::nullopt, "assumedly after job");
  EXPECT_EQ(killed.state, JobState::Failed);
  EXPECT_EQ(killed.detail, "failed 100: assumedly after job");
  EXPECT_EQ(map("failed 26", std::nullopt, "opening input/output file").state, JobState::Failed);
  EXPECT_EQ(map("failed 0").state, JobState::Unknown);  // no exit status: not a success
  EXPECT_EQ(map("failed x").state, JobState::Unknown);
  EXPECT_EQ(map("failed 99999999999").state, JobState::Unknown);
}

}  // namespace
}  // namespace yard
