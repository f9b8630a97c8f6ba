#include "backends/torque/torque_argv.h"

namespace yard {

std::vector<std::string> torque_qsub_argv(const std::string& script_path) { return {"qsub", script_path}; }

std::vector<std::string> torque_qstat_argv() { return {"qstat", "-x", "-t"}; }

std::vector<std::string> torque_action_argv(JobAction action, const std::vector<std::string>& native_ids) {
  if (action != JobAction::Hold && action != JobAction::Release) return {};
  std::vector<std::string> argv{action == JobAction::Hold ? "qhold" : "qrls", "-h", "u"};
  argv.insert(argv.end(), native_ids.begin(), native_ids.end());
  return argv;
}

std::vector<std::string> torque_qdel_argv(const std::vector<std::string>& native_ids) {
  std::vector<std::string> argv{"qdel"};
  argv.insert(argv.end(), native_ids.begin(), native_ids.end());
  return argv;
}

}  // namespace yard
