// Every OAR 2.5.9 state, an Error told apart by its events, and what is not known kept
// raw, never taken for success.
#include "backends/oar/oar_states.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

NativeStatus status(std::string state, std::vector<std::string> events = {}) {
  NativeStatus s;
  s.native_id = "7";
  s.raw_state = std::move(state);
  s.events = std::move(events);
  return s;
}

TEST(OarStates, EveryStateOfOar) {
  const std::pair<const char*, JobState> live[] = {
      {"Waiting", JobState::Pending},     {"Hold", JobState::Pending},       {"toAckReservation", JobState::Pending},
      {"toLaunch", JobState::Pending},    {"Launching", JobState::Running},  {"Running", JobState::Running},
      {"Suspended", JobState::Running},   {"Resuming", JobState::Running},   {"Finishing", JobState::Running},
      {"toError", JobState::Failed},      {"Error", JobState::Failed}};
  for (auto [state, expected] : live) EXPECT_EQ(map_oar_state(status(state)).state, expected) << state;
  EXPECT_EQ(map_oar_state(status("Hold")).detail, "held");
  EXPECT_EQ(map_oar_state(status("Suspended")).detail, "suspended");
}

TEST(OarStates, TerminatedByItsExitStatusOrSignal) {
  auto s = status("Terminated");
  s.exit_code = 0;
  EXPECT_EQ(map_oar_state(s).state, JobState::Completed);
  s.exit_code = 3;
  EXPECT_EQ(map_oar_state(s).state, JobState::Failed);
  EXPECT_EQ(map_oar_state(s).detail, "exit 3");
  s.exit_code.reset();
  s.signal = 9;
  EXPECT_EQ(map_oar_state(s).state, JobState::Failed);
  EXPECT_EQ(map_oar_state(s).detail, "signal 9");
  // Ended with no status recorded: how is not known, and it is never success.
  EXPECT_EQ(map_oar_state(status("Terminated")).state, JobState::Unknown);
}

TEST(OarStates, AnErrorIsToldApartByItsEvents) {
  EXPECT_EQ(map_oar_state(status("Error", {"FRAG_JOB_REQUEST", "SEND_KILL_JOB", "SWITCH_INTO_ERROR_STATE"})).state,
            JobState::Cancelled);
  // OAR kills through a delete: the walltime's and the best-effort kill carry one too.
  EXPECT_EQ(map_oar_state(status("Error", {"FRAG_JOB_REQUEST", "WALLTIME", "SEND_KILL_JOB"})).state, JobState::Timeout);
  const auto preempted =
      map_oar_state(status("Error", {"BESTEFFORT_KILL", "FRAG_JOB_REQUEST", "SEND_KILL_JOB", "SWITCH_INTO_ERROR_STATE"}));
  EXPECT_EQ(preempted.state, JobState::Failed);
  EXPECT_NE(preempted.detail.find("preempted"), std::string::npos);
  auto failed = status("Error");
  failed.reason = "Cannot launch the job";
  EXPECT_EQ(map_oar_state(failed).state, JobState::Failed);
  EXPECT_EQ(map_oar_state(failed).detail, "Error: Cannot launch the job");
}

TEST(OarStates, UnknownStatesAreKeptRawNeverSuccess) {
  for (const char* raw : {"", "terminated", "Terminated ", "NA", "Done", "Waiting\n"}) {
    const auto m = map_oar_state(status(raw));
    EXPECT_EQ(m.state, JobState::Unknown) << raw;
    EXPECT_EQ(m.detail, raw);
  }
}

}  // namespace
}  // namespace yard
