#include "backends/oar/oar_argv.h"

#include <cmath>

namespace yard {
namespace {

bool all_digits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::vector<std::string> oarsub_argv(const std::string& script_path) { return {"oarsub", "-S", script_path}; }

// -u lists current jobs only, without exit codes: cheap however long the history.
std::vector<std::string> oarstat_queue_argv(const std::string& user) { return {"oarstat", "-J", "-u", user}; }

// -f for exit_code and events; --sql rather than one -j per job, so that the argv stays
// one word whatever the number of jobs. Ids are digits (anything else is left out).
std::vector<std::string> oarstat_history_argv(const std::vector<std::string>& native_ids) {
  std::string list;
  for (auto& id : native_ids)
    if (all_digits(id)) list += (list.empty() ? "" : ",") + id;
  if (list.empty()) list = "-1";
  return {"oarstat", "-J", "-f", "--sql", "job_id IN (" + list + ")"};
}

std::vector<std::string> oarstat_named_argv(const std::string& user, const std::vector<std::string>& native_names,
                                            double since) {
  constexpr double kClockSkew = 600;
  std::string names;
  for (auto& n : native_names) names += (names.empty() ? "" : ",") + sql_literal(n);
  if (names.empty()) names = "''";
  const long long from = static_cast<long long>(std::floor(std::max(since - kClockSkew, 0.0)));
  return {"oarstat", "-J", "--sql",
          "job_user = " + sql_literal(user) + " AND job_name IN (" + names + ") AND submission_time >= " +
              std::to_string(from)};
}

std::vector<std::string> oar_action_argv(JobAction action, const std::vector<std::string>& native_ids) {
  if (action != JobAction::Hold && action != JobAction::Release) return {};
  std::vector<std::string> argv{action == JobAction::Hold ? "oarhold" : "oarresume"};
  argv.insert(argv.end(), native_ids.begin(), native_ids.end());
  return argv;
}

std::vector<std::string> oardel_argv(const std::vector<std::string>& native_ids) {
  std::vector<std::string> argv{"oardel"};
  argv.insert(argv.end(), native_ids.begin(), native_ids.end());
  return argv;
}

std::string sql_literal(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

}  // namespace yard
