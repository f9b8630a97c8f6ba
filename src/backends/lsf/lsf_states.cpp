#include "backends/lsf/lsf_states.h"

#include <cctype>
#include <string>

#include "core/text.h"

namespace yard {
namespace {

// The TERM_* token of an exit reason ("TERM_RUNLIMIT: job killed after reaching LSF run
// time limit"), or "".
std::string term_of(std::string_view reason) {
  const auto at = reason.find("TERM_");
  if (at == std::string_view::npos) return "";
  auto end = at + 5;
  while (end < reason.size() && (std::isupper(static_cast<unsigned char>(reason[end])) || reason[end] == '_')) ++end;
  return std::string(reason.substr(at, end - at));
}

MappedState exited(const NativeStatus& s) {
  const std::string term = term_of(s.reason);
  const std::string& detail = s.reason;
  if (term == "TERM_RUNLIMIT" || term == "TERM_DEADLINE" || term == "TERM_CPULIMIT") return {JobState::Timeout, detail};
  if (term == "TERM_MEMLIMIT" || term == "TERM_SWAP") return {JobState::OutOfMemory, detail};
  if (term == "TERM_OWNER" || term == "TERM_FORCE_OWNER" || term == "TERM_ADMIN" || term == "TERM_FORCE_ADMIN")
    return {JobState::Cancelled, detail};
  if (term == "TERM_PREEMPT") return {JobState::Failed, "preempted: " + detail};
  if (term == "TERM_ZOMBIE" || term == "TERM_REMOVE_HUNG_JOB" || term == "TERM_ORPHAN_SYSTEM")
    return {JobState::NodeFail, detail};
  if (starts_with(term, "TERM_REQUEUE")) return {JobState::Pending, detail};
  std::string what = s.signal ? "killed by signal " + std::to_string(*s.signal)
                     : s.exit_code ? "exit " + std::to_string(*s.exit_code)
                                   : "exited";
  return {JobState::Failed, detail.empty() ? what : what + ": " + detail};
}

}  // namespace

MappedState map_lsf_state(const NativeStatus& s) {
  const std::string_view st = trim(s.raw_state);
  if (st == "PEND") {
    if (to_lower(s.reason).find("never satisfied") != std::string::npos)
      return {JobState::Pending, "DependencyNeverSatisfied: " + s.reason};
    return {JobState::Pending, s.reason};
  }
  if (st == "PSUSP") return {JobState::Pending, "held"};
  if (st == "WAIT" || st == "PROV") return {JobState::Pending, std::string(st)};
  if (st == "RUN") return {JobState::Running, {}};
  if (st == "USUSP" || st == "SSUSP") return {JobState::Running, "suspended (" + std::string(st) + ")"};
  if (st == "DONE" || st == "PDONE") return {JobState::Completed, {}};
  if (st == "PERR") return {JobState::Failed, "its post-execution command failed"};
  if (st == "EXIT") return exited(s);
  return {JobState::Unknown, s.raw_state};
}

}  // namespace yard
