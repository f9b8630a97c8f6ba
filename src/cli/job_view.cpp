#include "cli/job_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "core/byte_json.h"
#include "core/clock.h"
#include "core/duration.h"
#include "core/size.h"
#include "core/text.h"

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
      {"held", j.held},
      {"retries", j.retries},
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

namespace {

// A JSON string as nlohmann's dump writes it (ensure_ascii off), after dump_json's
// \xNN for bytes that are not UTF-8.
void append_json_string(std::string& out, std::string_view raw) {
  const std::string fixed = is_valid_utf8(raw) ? std::string() : escape_invalid_utf8(raw);
  const std::string_view s = fixed.empty() ? raw : std::string_view(fixed);
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

// One row. Only NAME is cut (at 16 characters, as before); the other cells are as wide as
// they need, and REASON, last, is shown whole: a row is never cut and always ends in its
// newline. Text from users is escaped for the terminal (core/text.h).
std::string table_row(const std::string& id, const std::string& name, const std::string& state,
                      const std::string& cpus, const std::string& mem, const std::string& gpus,
                      const std::string& elapsed, const std::string& exit, const std::string& reason) {
  return pad_right(id, 12) + " " + terminal_cell(name, 16) + " " + pad_right(state, 13) + " " + pad_left(cpus, 5) +
         " " + pad_left(mem, 7) + " " + pad_left(gpus, 4) + " " + pad_left(elapsed, 10) + " " + pad_left(exit, 5) +
         "  " + escape_for_terminal(reason) + "\n";
}

}  // namespace

double wall_clock_now() { return wall_now(); }

void append_job_json(std::string& out, const JobRecord& j, int level) {
  const std::string pad(static_cast<std::size_t>(2 * level), ' ');
  bool first = true;
  // Keys in nlohmann's (sorted) order, as job_json's object prints.
  auto key = [&](const char* k) {
    out += first ? "{\n" : ",\n";
    first = false;
    out += pad;
    out += "  \"";
    out += k;
    out += "\": ";
  };
  auto integer = [&](const char* k, const std::optional<std::int64_t>& v) {
    key(k);
    out += v ? std::to_string(*v) : "null";
  };
  auto text = [&](const char* k, std::string_view v) {
    key(k);
    append_json_string(out, v);
  };
  auto time = [&](const char* k, const std::optional<double>& t) {
    key(k);
    if (t) append_json_string(out, rfc3339(*t));
    else out += "null";
  };
  integer("array_job_id", j.array_job_id);
  integer("array_task_id", j.array_index);
  text("backend", j.backend);
  key("cpu_seconds");
  out += j.cpu_seconds ? nlohmann::json(*j.cpu_seconds).dump() : "null";
  integer("cpus", j.cpus);
  time("end_time", j.end_time);
  integer("exit_code", j.exit_code);
  integer("gpus", j.gpus);
  key("held");
  out += j.held ? "true" : "false";
  integer("id", j.id);
  integer("max_rss_bytes", j.max_rss_bytes);
  integer("mem_bytes", j.mem_bytes);
  text("name", j.name);
  key("native_id");
  if (j.native_id.empty()) out += "null";
  else append_json_string(out, j.native_id);
  text("reason", j.reason);
  integer("retries", j.retries);
  integer("signal", j.signal);
  time("start_time", j.start_time);
  text("state", to_string(j.state));
  text("stderr", j.stderr_path);
  text("stdout", j.stdout_path);
  time("submit_time", j.submit_time);
  text("uid", j.uid);
  integer("walltime_s", j.walltime_s);
  out += "\n" + pad + "}";
}

void print_job_table(std::ostream& out, const std::vector<JobRecord>& jobs, double now) {
  out << table_row("JOBID", "NAME", "STATE", "CPUS", "MEM", "GPUS", "ELAPSED", "EXIT", "REASON");
  for (auto& j : jobs) {
    std::string elapsed = "-";
    if (j.start_time) {
      // Both ends fractional: a whole-second clock here made running jobs up to 1 s short.
      const double end = j.end_time ? *j.end_time : now;
      elapsed = format_walltime(static_cast<std::int64_t>(std::max(0.0, end - *j.start_time)));
    }
    std::string exit = j.exit_code ? std::to_string(*j.exit_code) : "-";
    if (j.signal && *j.signal) exit = "0:" + std::to_string(*j.signal);
    out << table_row(display_id(j), j.name, std::string(to_string(j.state)), std::to_string(j.cpus),
                     j.mem_bytes ? format_bytes(static_cast<std::uint64_t>(j.mem_bytes)) : "-", std::to_string(j.gpus),
                     elapsed, exit, j.reason);
  }
}

std::string display_id(const LoggedEvent& e) {
  if (e.array_job_id && e.array_index) return std::to_string(*e.array_job_id) + "_" + std::to_string(*e.array_index);
  return std::to_string(e.job_id);
}

nlohmann::json event_json(const LoggedEvent& e) {
  return {{"id", e.id},
          {"job", display_id(e)},
          {"name", bytes_to_json(e.name)},
          {"backend", e.backend},
          {"state", to_string(e.event.state)},
          {"time", rfc3339(e.event.time)},
          {"detail", bytes_to_json(e.event.detail)}};
}

}  // namespace yard
