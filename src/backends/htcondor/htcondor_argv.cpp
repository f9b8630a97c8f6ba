#include "backends/htcondor/htcondor_argv.h"

#include <cmath>
#include <set>

namespace yard {

const char* const kCondorAttributes =
    "ClusterId,ProcId,JobStatus,JobBatchName,Owner,ExitCode,ExitBySignal,ExitSignal,HoldReason,HoldReasonCode,"
    "HoldReasonSubCode,RemoveReason,NumJobStarts,JobStartDate,CompletionDate,EnteredCurrentStatus,RemoteHost";

namespace {

std::vector<std::string> with_attributes(std::vector<std::string> argv) {
  argv.insert(argv.end(), {"-json", "-attributes", kCondorAttributes});
  return argv;
}

// A second earlier than `since`, whole: the history's times are whole seconds.
std::string seconds_before(double since) {
  return std::to_string(static_cast<long long>(std::floor(since)) - 1);
}

}  // namespace

std::vector<std::string> condor_submit_argv(const std::string& description_path) {
  return {"condor_submit", "-terse", description_path};
}

std::vector<std::string> condor_q_argv(const std::vector<std::string>& job_ids) {
  std::vector<std::string> argv{"condor_q"};
  std::set<std::string> clusters;
  for (const auto& id : job_ids)
    if (clusters.insert(id.substr(0, id.find('.'))).second) argv.push_back(id.substr(0, id.find('.')));
  return with_attributes(std::move(argv));
}

std::vector<std::string> condor_q_user_argv(const std::string& user) { return with_attributes({"condor_q", user}); }

std::vector<std::string> condor_history_argv(const std::vector<std::string>& job_ids, double since) {
  std::vector<std::string> argv{"condor_history"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  argv = with_attributes(std::move(argv));
  argv.insert(argv.end(), {"-completedsince", seconds_before(since)});
  return argv;
}

std::vector<std::string> condor_history_user_argv(const std::string& user, double since) {
  auto argv = with_attributes({"condor_history", user});
  argv.insert(argv.end(), {"-completedsince", seconds_before(since)});
  return argv;
}

std::vector<std::string> condor_action_argv(JobAction action, const std::vector<std::string>& job_ids) {
  if (action != JobAction::Hold && action != JobAction::Release) return {};
  std::vector<std::string> argv{action == JobAction::Hold ? "condor_hold" : "condor_release"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  return argv;
}

std::vector<std::string> condor_rm_argv(const std::vector<std::string>& job_ids) {
  std::vector<std::string> argv{"condor_rm"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  return argv;
}

}  // namespace yard
