#include "backends/flux/flux_states.h"

#include <string>

#include "core/text.h"

namespace yard {
namespace {

std::string exception_of(const NativeStatus& s) {
  for (const auto& e : s.events)
    if (e.starts_with("exception=")) return e.substr(10);
  return "";
}

std::string with_note(std::string what, const std::string& note) { return note.empty() ? what : what + ": " + note; }

MappedState failed(const NativeStatus& s) {
  const std::string type = exception_of(s);
  if (type == "dependency") return {JobState::Cancelled, "DependencyNeverSatisfied"};
  if (type == "node-failure") return {JobState::NodeFail, with_note("node failure", s.reason)};
  if (type == "oom") return {JobState::OutOfMemory, with_note("out of memory", s.reason)};
  if (type == "timeout") return {JobState::Timeout, with_note("time limit", s.reason)};
  std::string what = s.signal ? "killed by signal " + std::to_string(*s.signal)
                     : s.exit_code ? "exit " + std::to_string(*s.exit_code)
                                   : "failed";
  if (!type.empty()) what += " (exception " + type + ")";
  return {JobState::Failed, with_note(what, s.reason)};
}

}  // namespace

MappedState map_flux_state(const NativeStatus& s) {
  const auto words = split(s.raw_state, ' ');
  const std::string_view state = words.empty() ? "" : words[0];
  const std::string_view result = words.size() > 1 ? words[1] : "";
  if (state == "DEPEND") return {JobState::Pending, "waiting for its dependencies"};
  if (state == "NEW" || state == "PRIORITY" || state == "SCHED") return {JobState::Pending, {}};
  if (state == "RUN") return {JobState::Running, {}};
  if (state == "CLEANUP") return {JobState::Running, "cleaning up"};
  if (state == "INACTIVE") {
    if (result == "COMPLETED") return {JobState::Completed, {}};
    if (result == "TIMEOUT") return {JobState::Timeout, with_note("time limit", s.reason)};
    if (result == "CANCELED") return {JobState::Cancelled, with_note("cancelled", s.reason)};
    if (result == "FAILED") return failed(s);
  }
  return {JobState::Unknown, s.raw_state};
}

}  // namespace yard
