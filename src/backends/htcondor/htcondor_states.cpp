#include "backends/htcondor/htcondor_states.h"

#include <string>

#include "backends/htcondor/htcondor_parse.h"

namespace yard {
namespace {

MappedState held(const NativeStatus& s) {
  const auto code = condor_event(s, "HoldReasonCode").value_or(0);
  const auto sub = condor_event(s, "HoldReasonSubCode").value_or(0);
  const std::string why = "held (code " + std::to_string(code) + "/" + std::to_string(sub) + ")" +
                          (s.reason.empty() ? "" : ": " + s.reason);
  if (code == 46 || code == 47) return {JobState::Timeout, why};  // allowed_job_duration, allowed_execute_duration
  if (code == 34 && sub == 102) return {JobState::OutOfMemory, why};
  if (code == 1 || code == 15 || code == 16) return {JobState::Pending, why};  // condor_hold, submitted on hold, spooling
  return {JobState::Failed, why};
}

MappedState ended(const NativeStatus& s) {
  if (s.signal) return {JobState::Failed, "killed by signal " + std::to_string(*s.signal)};
  if (!s.exit_code) return {JobState::Failed, "completed without an exit code"};
  if (*s.exit_code == 0) return {JobState::Completed, {}};
  return {JobState::Failed, "exit " + std::to_string(*s.exit_code)};
}

}  // namespace

MappedState map_htcondor_state(const NativeStatus& s) {
  const std::string& st = s.raw_state;
  if (st == "1") {
    const auto starts = condor_event(s, "NumJobStarts").value_or(0);
    if (starts > 0)
      return {JobState::Pending,
              "evicted and idle again after " + std::to_string(starts) + " start(s): preempted, or its machine was lost"};
    return {JobState::Pending, {}};
  }
  if (st == "2") return {JobState::Running, {}};
  if (st == "6") return {JobState::Running, "transferring its output"};
  if (st == "7") return {JobState::Running, "suspended"};
  if (st == "3") return {JobState::Cancelled, s.reason.empty() ? "removed" : "removed: " + s.reason};
  if (st == "4") return ended(s);
  if (st == "5") return held(s);
  return {JobState::Unknown, st.empty() ? "no JobStatus" : "JobStatus " + st};
}

}  // namespace yard
