#include "core/flow_record.h"

namespace yard {

const char* to_string(StepOrigin o) {
  switch (o) {
    case StepOrigin::Submitted: return "submitted";
    case StepOrigin::Attached: return "attached";
    case StepOrigin::UpToDate: return "up-to-date";
  }
  return "submitted";
}

std::optional<StepOrigin> step_origin_from(std::string_view s) {
  for (auto o : {StepOrigin::Submitted, StepOrigin::Attached, StepOrigin::UpToDate})
    if (s == to_string(o)) return o;
  return std::nullopt;
}

void FlowStepRecord::tally(JobState s) {
  const bool failed_already = is_terminal(state) && state != JobState::Completed && jobs > 0;
  ++jobs;
  if (is_terminal(s)) ++jobs_ended;
  if (failed_already) return;  // a failure stays the step's state
  if (is_terminal(s) && s != JobState::Completed) state = s;
  else if (s == JobState::Running || s == JobState::Unknown) state = JobState::Running;
  else if (jobs == 1) state = s;  // the first job: PENDING or COMPLETED
  else if (state == JobState::Completed && s != JobState::Completed) state = s;
}

void FlowRecord::count(const FlowStepRecord& step) {
  ++steps;
  if (step.state == JobState::Pending) ++pending;
  else if (step.state == JobState::Running) ++running;
  else if (step.state == JobState::Completed) ++completed;
  else ++failed;
  if (step.origin == StepOrigin::Submitted) ++submitted;
  else if (step.origin == StepOrigin::Attached) ++attached;
  else ++up_to_date;
}

}  // namespace yard
