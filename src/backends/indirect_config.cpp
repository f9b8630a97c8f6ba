// The indirect engine's settings file (slurm.yaml): see indirect_backend.h for the keys.
#include <filesystem>

#include <yaml-cpp/yaml.h>

#include "backends/indirect_backend.h"

namespace yard {

Result<IndirectConfig> load_indirect_config(const std::string& path) {
  IndirectConfig c;
  if (!std::filesystem::exists(path)) return c;
  try {
    YAML::Node n = YAML::LoadFile(path);
    if (!n || n.IsNull()) return c;
    if (!n.IsMap()) return err(path + ": expected a mapping of settings");
    for (auto it : n) {
      const std::string key = it.first.as<std::string>();
      const std::string where = path + ":" + std::to_string(it.second.Mark().line + 1) + ": ";
      if (key == "allocation") {
        c.allocation = it.second.as<std::string>("");
        if (c.allocation.empty() || c.allocation.find_first_not_of("0123456789") != std::string::npos)
          return err(where + "allocation: expected a Slurm job id (digits), got '" + c.allocation + "'");
        continue;
      }
      if (key == "job_limit") {
        try {
          c.step_job_limit = it.second.as<int>();
        } catch (const std::exception&) {
          c.step_job_limit = -1;
        }
        if (c.step_job_limit < 0)
          return err(where + "job_limit: expected a number of steps >= 0, got '" + it.second.as<std::string>("?") + "'");
        continue;
      }
      double* slot = key == "poll_interval"      ? &c.poll_interval_s
                     : key == "calls_per_second" ? &c.calls_per_second
                     : key == "burst"            ? &c.burst
                     : key == "command_timeout"  ? &c.command_timeout_s
                     : key == "retry_max"        ? &c.retry_max_s
                     : key == "lost_after"       ? &c.lost_after_s
                     : key == "cancel_resend"    ? &c.cancel_resend_s
                                                 : nullptr;
      if (!slot)
        return err(path + ":" + std::to_string(it.first.Mark().line + 1) + ": unknown setting '" + key +
                   "' (known: poll_interval, calls_per_second, burst, command_timeout, retry_max, "
                   "lost_after, cancel_resend, allocation, job_limit)");
      double v = 0;
      try {
        v = it.second.as<double>();
      } catch (const std::exception&) {
        return err(path + ":" + std::to_string(it.second.Mark().line + 1) + ": " + key +
                   ": expected a number of seconds (or calls), got '" + it.second.as<std::string>("?") + "'");
      }
      if (v < 0 || (v == 0 && key != "calls_per_second"))
        return err(path + ":" + std::to_string(it.second.Mark().line + 1) + ": " + key + " must be > 0");
      *slot = v;
    }
  } catch (const YAML::Exception& e) {
    return err(path + ": " + e.what());
  }
  return c;
}

}  // namespace yard
