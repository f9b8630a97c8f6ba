#include "cli/job_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "core/duration.h"
#include "core/size.h"

namespace yard {

std::string rfc3339(double t) {
  std::time_t s = static_cast<std::time_t>(t);
  std::tm tm{};
  gmtime_r(&s, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(std::fmod(t, 1.0) * 1000));
  return out;
}

std::string display_id(const JobRecord& j) {
  if (j.array_job_id && j.array_index) return std::to_string(*j.array_job_id) + "_" + std::to_string(*j.array_index);
  return std::to_string(j.id);
}

nlohmann::json job_json(const JobRecord& j) {
  auto opt_time = [](const std::optional<double>& t) { return t ? nlohmann::json(rfc3339(*t)) : nlohmann::json(); };
  auto opt = [](const auto& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
  return {
      {"id", j.id},
      {"uid", j.uid},
      {"name", j.name},
      {"backend", j.backend},
      {"native_id", j.native_id.empty() ? nlohmann::json(nullptr) : nlohmann::json(j.native_id)},
      {"state", to_string(j.state)},
      {"reason", j.reason},
      {"exit_code", opt(j.exit_code)},
      {"signal", opt(j.signal)},
      {"submit_time", rfc3339(j.submit_time)},
      {"start_time", opt_time(j.start_time)},
      {"end_time", opt_time(j.end_time)},
      {"cpus", j.cpus},
      {"mem_bytes", j.mem_bytes},
      {"gpus", j.gpus},
      {"walltime_s", j.walltime_s},
      {"max_rss_bytes", opt(j.max_rss_bytes)},
      {"cpu_seconds", opt(j.cpu_seconds)},
      {"array_job_id", opt(j.array_job_id)},
      {"array_task_id", opt(j.array_index)},
      {"stdout", j.stdout_path},
      {"stderr", j.stderr_path},
  };
}

void print_job_table(std::ostream& out, const std::vector<JobRecord>& jobs) {
  char line[256];
  std::snprintf(line, sizeof line, "%-12s %-16s %-13s %5s %7s %4s %10s %5s  %s\n", "JOBID", "NAME", "STATE", "CPUS",
                "MEM", "GPUS", "ELAPSED", "EXIT", "REASON");
  out << line;
  for (auto& j : jobs) {
    std::string elapsed = "-";
    if (j.start_time) {
      const double end = j.end_time ? *j.end_time : static_cast<double>(std::time(nullptr));
      elapsed = format_walltime(static_cast<std::int64_t>(std::max(0.0, end - *j.start_time)));
    }
    std::string exit = j.exit_code ? std::to_string(*j.exit_code) : "-";
    if (j.signal && *j.signal) exit = "0:" + std::to_string(*j.signal);
    std::snprintf(line, sizeof line, "%-12s %-16.16s %-13s %5d %7s %4d %10s %5s  %s\n", display_id(j).c_str(),
                  j.name.c_str(), std::string(to_string(j.state)).c_str(), j.cpus,
                  j.mem_bytes ? format_bytes(static_cast<std::uint64_t>(j.mem_bytes)).c_str() : "-", j.gpus,
                  elapsed.c_str(), exit.c_str(), j.reason.c_str());
    out << line;
  }
}

}  // namespace yard
