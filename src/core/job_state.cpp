#include "core/job_state.h"

#include <array>
#include <utility>

namespace yard {
namespace {

constexpr std::array<std::pair<JobState, std::string_view>, 10> kNames{{
    {JobState::Pending, "PENDING"},
    {JobState::Running, "RUNNING"},
    {JobState::Completed, "COMPLETED"},
    {JobState::Failed, "FAILED"},
    {JobState::Cancelled, "CANCELLED"},
    {JobState::Timeout, "TIMEOUT"},
    {JobState::OutOfMemory, "OUT_OF_MEMORY"},
    {JobState::NodeFail, "NODE_FAIL"},
    {JobState::Lost, "LOST"},
    {JobState::Unknown, "UNKNOWN"},
}};

}  // namespace

std::string_view to_string(JobState s) {
  for (auto& [state, name] : kNames)
    if (state == s) return name;
  return "UNKNOWN";
}

std::optional<JobState> parse_job_state(std::string_view text) {
  for (auto& [state, name] : kNames)
    if (name == text) return state;
  return std::nullopt;
}

bool is_terminal(JobState s) {
  switch (s) {
    case JobState::Pending:
    case JobState::Running:
    case JobState::Unknown:
      return false;
    default:
      return true;
  }
}

bool is_legal_transition(JobState from, JobState to) {
  if (from == to) return false;
  switch (from) {
    case JobState::Pending:
      return to != JobState::Completed && to != JobState::Timeout && to != JobState::OutOfMemory;
    case JobState::Running:
      return true;
    case JobState::Unknown:
      return true;
    default:
      return false;
  }
}

}  // namespace yard
