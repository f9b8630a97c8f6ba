#include "backends/flux/flux_argv.h"

namespace yard {

std::vector<std::string> flux_jobs_argv(const std::vector<std::string>& job_ids) {
  std::vector<std::string> argv{"flux", "jobs", "--json"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  return argv;
}

std::vector<std::string> flux_jobs_all_argv() { return {"flux", "jobs", "--json", "-a"}; }

std::vector<std::string> flux_action_argv(JobAction action, const std::vector<std::string>& job_ids) {
  if ((action != JobAction::Hold && action != JobAction::Release) || job_ids.size() != 1) return {};
  return {"flux", "job", "urgency", job_ids.front(), action == JobAction::Hold ? "hold" : "default"};
}

std::vector<std::string> flux_cancel_argv(const std::vector<std::string>& job_ids) {
  std::vector<std::string> argv{"flux", "cancel"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  return argv;
}

}  // namespace yard
