#include "backends/pbs/pbs_states.h"

#include <charconv>
#include <string>

#include "backends/pbs/pbs_values.h"
#include "core/text.h"

namespace yard {
namespace {

// An event "key=N" of pbs_status_of, or nothing.

// A name for PBS's own failure codes (job.h), as a reason.
std::string exec_code(long long code) {
  switch (code) {
    case -1: return "JOB_EXEC_FAIL1: could not start (before its files)";
    case -2: return "JOB_EXEC_FAIL2: could not start (after its files)";
    case -3: return "JOB_EXEC_RETRY: could not start, retried";
    case -4: return "JOB_EXEC_INITABT: the node aborted it at start";
    case -10: return "JOB_EXEC_FAILUID: bad user or group on the node";
    case -13: return "JOB_EXEC_FAIL_PASSWORD";
    case -15: return "JOB_EXEC_QUERST: a node's start-up failed";
    case -17: case -19: return "deleted by a hook";
    case -21: return "JOB_EXEC_FAIL_SECURITY";
    case -22: return "JOB_EXEC_HOOKERROR: a hook failed";
    case -23: return "JOB_EXEC_FAIL_KRB5";
    case -24: case -25: return "exceeded resource ncpus";
    default: return "Exit_status " + std::to_string(code);
  }
}

MappedState ended(const NativeStatus& s) {
  const auto code = status_event(s, "Exit_status");
  const auto substate = status_event(s, "substate");
  std::string detail = s.reason;
  auto with = [&](std::string what) { return detail.empty() ? what : what + ": " + detail; };
  if (reason_says(s, "exceeded resource walltime") || reason_says(s, "exceeded resource cput") || (code && (*code == -29 || *code == -28)))
    return {JobState::Timeout, detail};
  if (reason_says(s, "exceeded resource mem") || reason_says(s, "exceeded resource vmem") || (code && (*code == -27 || *code == -26)))
    return {JobState::OutOfMemory, detail};
  if (!code) {
    // Never ran: deleted, by a user, or by the server with a dependency it can never meet.
    if (reason_says(s, "dependency")) return {JobState::Cancelled, "DependencyNeverSatisfied"};
    if ((substate && *substate == 91) || reason_says(s, "terminated") || reason_says(s, "deleted"))
      return {JobState::Cancelled, detail.empty() ? "deleted before it ran" : detail};
    return {JobState::Unknown, with("ended (" + s.raw_state + ") without an Exit_status")};
  }
  if (*code == 0) return {JobState::Completed, {}};
  if (*code > 0 && *code <= 255) return {JobState::Failed, with("exit " + std::to_string(*code))};
  if (*code > 256 && *code < 256 + 128) {
    // The older servers' walltime kill is a SIGTERM like a qdel's: told apart by the time used.
    if (*code == 256 + 15 && has_status_event(s, "walltime_exceeded")) return {JobState::Timeout, with("walltime used up")};
    if ((substate && *substate == 91) || reason_says(s, "terminated")) return {JobState::Cancelled, detail};
    return {JobState::Failed, with("killed by signal " + std::to_string(*code - 256))};
  }
  if (*code == -11 || *code == -14 || *code == -20) return {JobState::NodeFail, with("its node was lost (Exit_status " + std::to_string(*code) + ")")};
  return {JobState::Failed, with(exec_code(*code))};
}

}  // namespace

MappedState map_pbs_state(const NativeStatus& s) {
  const std::string_view st = trim(s.raw_state);
  if (st == "Q") return {JobState::Pending, s.reason};
  if (st == "H") {
    const auto substate = status_event(s, "substate");
    return {JobState::Pending, substate && *substate == 22 ? "waiting for its dependencies" : "held"};
  }
  if (st == "W") return {JobState::Pending, "waiting for its start time"};
  if (st == "T") return {JobState::Pending, "in transit"};
  if (st == "R" || st == "B") return {JobState::Running, {}};
  if (st == "E") return {JobState::Running, "exiting"};
  if (st == "S" || st == "U") return {JobState::Running, "suspended"};
  if (st == "F" || st == "X") return ended(s);
  if (st == "M") return {JobState::Unknown, "moved to another server (M)"};
  return {JobState::Unknown, s.raw_state};
}

}  // namespace yard
