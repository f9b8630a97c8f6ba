#include "backends/lsf/lsf_argv.h"

#include <set>

#include "backends/lsf/lsf_parse.h"

namespace yard {

std::vector<std::string> lsf_bsub_argv() { return {"bsub"}; }

std::vector<std::string> lsf_bjobs_argv(const std::vector<std::string>& native_ids) {
  std::vector<std::string> argv{"bjobs", "-a", "-json", "-o", kBjobsFields};
  std::set<std::string> seen;
  for (const auto& id : native_ids) {
    const std::string base = id.substr(0, id.find('['));
    if (seen.insert(base).second) argv.push_back(base);
  }
  return argv;
}

std::vector<std::string> lsf_bjobs_user_argv(const std::string& user) {
  return {"bjobs", "-a", "-json", "-o", kBjobsFields, "-u", user};
}

std::vector<std::string> lsf_action_argv(JobAction action, const std::vector<std::string>& native_ids) {
  if (action != JobAction::Hold && action != JobAction::Release) return {};
  std::vector<std::string> argv{action == JobAction::Hold ? "bstop" : "bresume"};
  argv.insert(argv.end(), native_ids.begin(), native_ids.end());
  return argv;
}

std::vector<std::string> lsf_bkill_argv(const std::vector<std::string>& native_ids) {
  std::vector<std::string> argv{"bkill"};
  argv.insert(argv.end(), native_ids.begin(), native_ids.end());
  return argv;
}

}  // namespace yard
