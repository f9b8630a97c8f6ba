#include "backends/pbs/pbs_argv.h"

#include <set>

namespace yard {

std::vector<std::string> pbs_qsub_argv(const std::string& script_path) { return {"qsub", script_path}; }

std::vector<std::string> pbs_qstat_argv(const std::vector<std::string>& native_ids) {
  std::vector<std::string> argv{"qstat", "-x", "-f", "-F", "json", "-t"};
  std::set<std::string> arrays;
  for (const auto& id : native_ids) {
    const auto bracket = id.find('[');
    if (bracket == std::string::npos) {
      argv.push_back(id);
    } else if (arrays.insert(id.substr(0, bracket)).second) {
      argv.push_back(id.substr(0, bracket) + "[]");  // with -t: the array and every subjob
    }
  }
  return argv;
}

std::vector<std::string> pbs_qstat_all_argv() { return {"qstat", "-x", "-f", "-F", "json"}; }

std::vector<std::string> pbs_action_argv(JobAction action, const std::vector<std::string>& native_ids) {
  if (action != JobAction::Hold && action != JobAction::Release) return {};
  std::vector<std::string> argv{action == JobAction::Hold ? "qhold" : "qrls", "-h", "u"};
  argv.insert(argv.end(), native_ids.begin(), native_ids.end());
  return argv;
}

std::vector<std::string> pbs_qdel_argv(const std::vector<std::string>& native_ids) {
  std::vector<std::string> argv{"qdel"};
  argv.insert(argv.end(), native_ids.begin(), native_ids.end());
  return argv;
}

}  // namespace yard
