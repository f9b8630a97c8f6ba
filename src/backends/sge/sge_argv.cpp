#include "backends/sge/sge_argv.h"

#include <cmath>
#include <ctime>

#include "backends/native_names.h"

namespace yard {

std::vector<std::string> qsub_argv(const std::string& script_path) { return {"qsub", "-terse", script_path}; }

// The whole of the user's queue rather than the tracked ids: `qstat -j` takes one list
// whose length grows with the number of jobs, and lists ended ones as unknown.
std::vector<std::string> qstat_argv(const std::string& user) { return {"qstat", "-xml", "-u", user}; }

// -j with the names' common pattern, -E -b: jobs that ended since the earliest submit
// time asked about (a job ends after it was submitted). A job deleted before it ran has
// no record at all; the engine knows that (it asked for the delete).
std::vector<std::string> qacct_argv(const std::string& user, double since) {
  constexpr double kClockSkew = 600;
  return {"qacct", "-o", user, "-j", std::string(kNativeNamePrefix) + "*", "-E", "-b", sge_local_time(since - kClockSkew)};
}

// qdel takes "12" and an array element "12.3" as they are.
std::vector<std::string> sge_action_argv(JobAction action, const std::vector<std::string>& native_ids) {
  if (action != JobAction::Hold && action != JobAction::Release) return {};
  std::vector<std::string> argv{action == JobAction::Hold ? "qhold" : "qrls", "-h", "u"};
  argv.insert(argv.end(), native_ids.begin(), native_ids.end());
  return argv;
}

std::vector<std::string> qdel_argv(const std::vector<std::string>& native_ids) {
  std::vector<std::string> argv{"qdel"};
  argv.insert(argv.end(), native_ids.begin(), native_ids.end());
  return argv;
}

std::string sge_local_time(double unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(std::floor(std::max(unix_seconds, 0.0)));
  std::tm tm{};
  ::localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d%H%M.%S", &tm);
  return buf;
}

}  // namespace yard
