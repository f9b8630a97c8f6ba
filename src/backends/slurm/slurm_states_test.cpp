#include "backends/slurm/slurm_states.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

struct Case {
  const char* raw;
  const char* reason;
  JobState state;
  const char* detail;
};

// Every state of squeue(1)'s "JOB STATE CODES" (Slurm 22.05), plus sacct's
// "CANCELLED by <uid>" and texts that must not be guessed at.
const Case kCases[] = {
    {"PENDING", "", JobState::Pending, ""},
    {"PENDING", "Priority", JobState::Pending, "reason Priority"},
    {"PENDING", "DependencyNeverSatisfied", JobState::Pending, "reason DependencyNeverSatisfied"},
    {"RUNNING", "", JobState::Running, ""},
    {"COMPLETING", "", JobState::Running, "COMPLETING"},
    {"COMPLETED", "", JobState::Completed, ""},
    {"FAILED", "NonZeroExitCode", JobState::Failed, "reason NonZeroExitCode"},
    {"CANCELLED", "", JobState::Cancelled, ""},
    {"CANCELLED by 0", "", JobState::Cancelled, "by uid 0"},
    {"CANCELLED by 1000", "", JobState::Cancelled, "by uid 1000"},
    {"TIMEOUT", "", JobState::Timeout, ""},
    {"OUT_OF_MEMORY", "", JobState::OutOfMemory, ""},
    {"NODE_FAIL", "", JobState::NodeFail, ""},
    {"PREEMPTED", "", JobState::Failed, "PREEMPTED"},
    {"REQUEUED", "", JobState::Pending, "REQUEUED"},
    {"REQUEUE_HOLD", "", JobState::Pending, "REQUEUE_HOLD"},
    {"REQUEUE_FED", "", JobState::Pending, "REQUEUE_FED"},
    {"RESV_DEL_HOLD", "", JobState::Pending, "RESV_DEL_HOLD"},
    {"BOOT_FAIL", "", JobState::NodeFail, "BOOT_FAIL"},
    {"DEADLINE", "", JobState::Timeout, "DEADLINE"},
    {"SUSPENDED", "", JobState::Running, "SUSPENDED"},
    {"STOPPED", "", JobState::Running, "STOPPED"},
    {"CONFIGURING", "", JobState::Running, "CONFIGURING"},
    {"RESIZING", "", JobState::Running, "RESIZING"},
    {"SIGNALING", "", JobState::Running, "SIGNALING"},
    {"STAGE_OUT", "", JobState::Running, "STAGE_OUT"},
    {"SPECIAL_EXIT", "", JobState::Failed, "SPECIAL_EXIT"},
    {"REVOKED", "", JobState::Cancelled, "REVOKED"},
    {"CANCELLED by", "", JobState::Unknown, "CANCELLED by"},
    {"COMPLETED by 0", "", JobState::Unknown, "COMPLETED by 0"},
    {"running", "", JobState::Unknown, "running"},
    {"R", "", JobState::Unknown, "R"},
    {"LAUNCH_FAILED", "", JobState::Unknown, "LAUNCH_FAILED"},
    {"", "", JobState::Unknown, ""},
};

TEST(SlurmStates, EveryState) {
  for (const auto& c : kCases) {
    NativeStatus s;
    s.raw_state = c.raw;
    s.reason = c.reason;
    auto m = map_slurm_state(s);
    EXPECT_EQ(m.state, c.state) << c.raw;
    EXPECT_EQ(m.detail, c.detail) << c.raw;
  }
}

TEST(SlurmStates, FailedSaysHow) {
  NativeStatus s;
  s.raw_state = "FAILED";
  s.exit_code = 3;
  EXPECT_EQ(map_slurm_state(s).detail, "exit code 3");
  s.exit_code.reset();
  s.signal = 9;
  EXPECT_EQ(map_slurm_state(s).detail, "signal 9");
  s.raw_state = "PREEMPTED";
  EXPECT_EQ(map_slurm_state(s).detail, "PREEMPTED, signal 9");
  s.raw_state = "COMPLETED";  // an exit code says nothing more on success
  EXPECT_EQ(map_slurm_state(s).detail, "");
}

}  // namespace
}  // namespace yard
