#include "backends/torque/torque_states.h"

#include <charconv>
#include <string>

#include "backends/pbs/pbs_values.h"
#include "core/text.h"

namespace yard {
namespace {


// Torque's failures to start a job (pbs_job.h).
std::string exec_code(long long code) {
  switch (code) {
    case -1: return "JOB_EXEC_FAIL1: could not start (before its files)";
    case -2: return "JOB_EXEC_FAIL2: could not start (after its files)";
    case -3: return "JOB_EXEC_RETRY: could not start, retried";
    case -4: return "JOB_EXEC_INITABT: the node aborted it at start";
    case -5: return "JOB_EXEC_INITRST: the node aborted its restart";
    case -6: return "JOB_EXEC_INITRMG: the node aborted it at start (resources)";
    case -7: return "JOB_EXEC_BADRESRT: its restart failed";
    case -8: return "JOB_EXEC_CMDFAIL: its command could not be run";
    case -9: return "JOB_EXEC_STDOUTFAIL: its output file could not be made";
    case -13: return "JOB_EXEC_RETRY_CGROUP: its cgroup could not be made";
    default: return "exit_status " + std::to_string(code);
  }
}

MappedState ended(const NativeStatus& s) {
  const auto code = status_event(s, "exit_status");
  const std::string& detail = s.reason;
  auto with = [&](std::string what) { return detail.empty() ? what : what + ": " + detail; };
  if (reason_says(s, "can never be satisfied") || reason_says(s, "as result of dependency"))
    return {JobState::Cancelled, "DependencyNeverSatisfied"};
  // Completed without ever running: only a delete ends a job so (the server says nothing more).
  if (!code) return {JobState::Cancelled, detail.empty() ? "deleted before it ran" : detail};
  if (*code == 0) return {JobState::Completed, {}};
  if (*code > 0 && *code <= 255) return {JobState::Failed, with("exit " + std::to_string(*code))};
  if (*code > 256 && *code < 256 + 128) {
    if (*code == 256 + 15 && has_status_event(s, "walltime_exceeded")) return {JobState::Timeout, with("walltime used up")};
    return {JobState::Failed, with("killed by signal " + std::to_string(*code - 256))};
  }
  if (*code == -11 || *code == -12) return {JobState::Timeout, with(*code == -11 ? "exceeded its walltime" : "exceeded its CPU time")};
  if (*code == -10) return {JobState::OutOfMemory, with("exceeded its memory")};
  return {JobState::Failed, with(exec_code(*code))};
}

}  // namespace

MappedState map_torque_state(const NativeStatus& s) {
  const std::string_view st = trim(s.raw_state);
  if (st == "Q") return {JobState::Pending, s.reason};
  if (st == "H") return {JobState::Pending, "held"};
  if (st == "W") return {JobState::Pending, "waiting for its start time"};
  if (st == "T") return {JobState::Pending, "being moved"};
  if (st == "R") return {JobState::Running, {}};
  if (st == "E") return {JobState::Running, "exiting"};
  if (st == "S") return {JobState::Running, "suspended"};
  if (st == "C") return ended(s);
  return {JobState::Unknown, s.raw_state};
}

}  // namespace yard
