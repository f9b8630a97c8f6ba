#include "backends/oar/oar_states.h"

#include <algorithm>
#include <string>

namespace yard {
namespace {

bool has_event(const NativeStatus& s, std::string_view type) {
  return std::find(s.events.begin(), s.events.end(), type) != s.events.end();
}

// A job OAR ended in Error: its events say why (tests/fixtures/oar/README.md). OAR kills
// every job through a delete (FRAG_JOB_REQUEST), so the more telling events come first:
// a best-effort job killed for a normal one was preempted (its work is unfinished and
// nobody the user knows stopped it: as Slurm's PREEMPTED, Failed with "preempted" in the
// detail); the walltime's kill is a timeout; a delete alone is a cancel.
MappedState ended_in_error(const NativeStatus& s) {
  const std::string why = s.reason.empty() ? "Error" : "Error: " + s.reason;
  if (has_event(s, "BESTEFFORT_KILL")) return {JobState::Failed, "preempted (best-effort job killed by OAR)"};
  if (has_event(s, "WALLTIME")) return {JobState::Timeout, why};
  if (has_event(s, "FRAG_JOB_REQUEST")) return {JobState::Cancelled, why};
  return {JobState::Failed, why};
}

}  // namespace

MappedState map_oar_state(const NativeStatus& s) {
  const std::string& st = s.raw_state;
  if (st == "Waiting") return {JobState::Pending, s.reason};
  if (st == "Hold") return {JobState::Pending, "held"};
  if (st == "toAckReservation") return {JobState::Pending, "reservation being acknowledged"};
  if (st == "toLaunch") return {JobState::Pending, "being launched"};
  if (st == "Launching") return {JobState::Running, "launching"};
  if (st == "Running") return {JobState::Running, ""};
  if (st == "Suspended") return {JobState::Running, "suspended"};
  if (st == "Resuming") return {JobState::Running, "resuming"};
  if (st == "Finishing") return {JobState::Running, "finishing"};
  if (st == "toError") return {JobState::Failed, "toError"};
  if (st == "Error") return ended_in_error(s);
  if (st == "Terminated") {
    if (s.signal) return {JobState::Failed, "signal " + std::to_string(*s.signal)};
    if (s.exit_code && *s.exit_code == 0) return {JobState::Completed, ""};
    if (s.exit_code) return {JobState::Failed, "exit " + std::to_string(*s.exit_code)};
    return {JobState::Unknown, st};  // ended, but how is not recorded: never success
  }
  return {JobState::Unknown, st};
}

}  // namespace yard
