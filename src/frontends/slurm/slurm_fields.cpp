#include "frontends/slurm/slurm_fields.h"

#include <cmath>
#include <ctime>

#include <unistd.h>

#include "cli/job_view.h"
#include "frontends/slurm/slurm_states.h"

namespace yard::slurm_front {
namespace {

std::string two(std::int64_t v) { return (v < 10 ? "0" : "") + std::to_string(v); }

std::int64_t used_seconds(const JobRecord& j, double now) {
  if (!j.start_time) return 0;
  const double end = j.end_time.value_or(now);
  return std::max<std::int64_t>(0, static_cast<std::int64_t>(end - *j.start_time));
}

std::string node_list(const JobRecord& j, const FieldContext& c) {
  if (!j.start_time) return "";
  if (j.backend == "local") return c.host;
  return j.alloc;
}

// squeue's REASON, one word as Slurm's are (tools split squeue's lines on blanks): None
// for a job that runs or completed; for a waiting one, the kind of yard's reason; for one
// that ended badly, Slurm's word for how.
std::string reason(const JobRecord& j) {
  const std::string state = slurm_state(j);
  if (state == "FAILED") return "NonZeroExitCode";
  if (state == "TIMEOUT") return "TimeLimit";
  if (state == "OUT_OF_MEMORY") return "OutOfMemory";
  if (j.start_time || slurm_ended(j)) return "None";
  if (j.held) return "JobHeldUser";  // yard hold, scontrol hold
  const std::string& r = j.reason;
  if (r.empty()) return j.array_index && j.array_max_running > 0 ? "JobArrayTaskLimit" : "Priority";
  if (r.find("waiting for job") != std::string::npos || r.find("ependen") != std::string::npos) return "Dependency";
  if (r.find("at most") != std::string::npos || r.find("array") != std::string::npos) return "JobArrayTaskLimit";
  if (r.find("held") != std::string::npos) return "JobHeldAdmin";
  if (r.find("begin") != std::string::npos) return "BeginTime";
  return "Resources";
}

// squeue's %R: (REASON) for a job waiting or ended badly, else its nodes.
std::string reason_list(const JobRecord& j, const FieldContext& c) {
  const std::string state = slurm_state(j);
  if (state == "PENDING" || state == "FAILED" || state == "TIMEOUT" || state == "OUT_OF_MEMORY")
    return "(" + reason(j) + ")";
  return node_list(j, c);
}

// Slurm's N:S: the exit status, or 0 and the signal that killed it.
std::string exit_code(const JobRecord& j) {
  if (j.signal.value_or(0) > 0) return "0:" + std::to_string(*j.signal);
  return std::to_string(j.exit_code.value_or(0)) + ":0";
}

// sacct says who cancelled a job: here, the user (the daemon cancels only on its word).
std::string sacct_state(const JobRecord& j) {
  std::string s = slurm_state(j);
  if (j.state == JobState::Cancelled && (j.cancel_requested || j.reason == "cancelled")) s += " by " + std::to_string(::getuid());
  return s;
}

std::string memory(std::int64_t bytes) {
  if (bytes <= 0) return "0";
  if (bytes % (1LL << 30) == 0) return std::to_string(bytes >> 30) + "G";
  return std::to_string((bytes + (1 << 20) - 1) >> 20) + "M";
}

std::string time_or(const std::optional<double>& t, const char* none) { return t ? slurm_time(*t) : none; }

}  // namespace

std::optional<std::string> field_value(std::string_view n, const JobRecord& j, const FieldContext& c) {
  if (n == "array_id") return display_id(j);
  if (n == "raw_id") return std::to_string(j.id);
  if (n == "array_job_id") return std::to_string(j.array_job_id.value_or(j.id));
  if (n == "array_task_id") return j.array_index ? std::to_string(*j.array_index) : "N/A";
  if (n == "name") return j.name;
  if (n == "user") return c.user;
  if (n == "state") return slurm_state(j);
  if (n == "state_compact") return slurm_state_compact(j);
  if (n == "sacct_state") return sacct_state(j);
  if (n == "reason") return reason(j);
  if (n == "reason_list") return reason_list(j, c);
  if (n == "node_list") return node_list(j, c);
  if (n == "sacct_node_list") return j.start_time ? node_list(j, c) : "None assigned";
  if (n == "nodes") return std::string("1");
  if (n == "cpus") return std::to_string(j.cpus);
  if (n == "partition") return j.backend;
  if (n == "account" || n == "qos" || n == "tres_per_node") return std::string();
  if (n == "priority") return std::to_string(j.priority);
  if (n == "min_memory") return memory(j.mem_bytes);
  if (n == "time_used") return squeue_duration(used_seconds(j, c.now));
  if (n == "time_limit") return j.walltime_s > 0 ? squeue_duration(j.walltime_s) : "UNLIMITED";
  if (n == "time_left")
    return j.walltime_s > 0 ? squeue_duration(std::max<std::int64_t>(0, j.walltime_s - used_seconds(j, c.now))) : "UNLIMITED";
  if (n == "submit_time") return slurm_time(j.submit_time);
  if (n == "start_time") return time_or(j.start_time, "N/A");
  if (n == "end_time") return time_or(j.end_time, "N/A");
  if (n == "sacct_start") return time_or(j.start_time, "Unknown");
  if (n == "sacct_end") return time_or(j.end_time, "Unknown");
  if (n == "elapsed") return sacct_duration(used_seconds(j, c.now));
  if (n == "sacct_time_limit") return j.walltime_s > 0 ? sacct_duration(j.walltime_s) : "UNLIMITED";
  if (n == "exit_code") return exit_code(j);
  if (n == "derived_exit_code") return exit_code(j);
  if (n == "alloc_cpus") return std::to_string(j.start_time ? j.cpus : 0);
  if (n == "req_cpus") return std::to_string(j.cpus);
  if (n == "req_mem") return memory(j.mem_bytes);
  if (n == "max_rss") return j.max_rss_bytes ? std::to_string(*j.max_rss_bytes / 1024) + "K" : "";
  if (n == "cpu_time") return sacct_duration(static_cast<std::int64_t>(j.cpu_seconds.value_or(0)));
  if (n == "work_dir" || n == "command" || n == "cluster") return std::string(n == "cluster" ? "yard" : "");
  return std::nullopt;
}

std::string squeue_duration(std::int64_t s) {
  const auto days = s / 86400, hours = s / 3600 % 24, minutes = s / 60 % 60, seconds = s % 60;
  if (days > 0) return std::to_string(days) + "-" + two(hours) + ":" + two(minutes) + ":" + two(seconds);
  if (hours > 0) return std::to_string(hours) + ":" + two(minutes) + ":" + two(seconds);
  return std::to_string(minutes) + ":" + two(seconds);
}

std::string sacct_duration(std::int64_t s) {
  const auto days = s / 86400, hours = s / 3600 % 24, minutes = s / 60 % 60, seconds = s % 60;
  return (days > 0 ? std::to_string(days) + "-" : "") + two(hours) + ":" + two(minutes) + ":" + two(seconds);
}

std::string slurm_time(double epoch_seconds) {
  const std::time_t t = static_cast<std::time_t>(std::floor(epoch_seconds));
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

}  // namespace yard::slurm_front
