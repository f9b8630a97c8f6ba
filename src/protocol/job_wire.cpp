#include "protocol/job_wire.h"

#include <cstdint>
#include <stdexcept>

#include "core/byte_json.h"

namespace yard {
namespace {

template <typename T>
nlohmann::json opt(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

template <typename T>
std::optional<T> opt_from(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<T>();
}

std::string bytes_at(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() ? std::string() : bytes_from_json(*it);
}

JobState state_from(const nlohmann::json& j) {
  const auto text = j.get<std::string>();
  auto s = parse_job_state(text);
  if (!s) throw std::invalid_argument("unknown job state '" + text + "'");
  return *s;
}

std::int64_t integer_value(const nlohmann::json& v, const char* key) {
  if (v.is_number_integer() && !v.is_number_unsigned()) return v.get<std::int64_t>();
  if (v.is_number_unsigned() && v.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(v.get<std::uint64_t>());
  throw std::invalid_argument(std::string("\"") + key + "\" must be an integer, not " + v.dump());
}

}  // namespace

std::int64_t wire_integer(const nlohmann::json& j, const char* key, std::int64_t fallback) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  return integer_value(*it, key);
}

std::vector<std::int64_t> wire_integers(const nlohmann::json& list, const char* key) {
  if (!list.is_array()) throw std::invalid_argument(std::string("\"") + key + "\" must be a list of job ids");
  std::vector<std::int64_t> out;
  out.reserve(list.size());
  for (const auto& v : list) out.push_back(integer_value(v, key));
  return out;
}

nlohmann::json job_to_wire(const JobRecord& j) {
  return {{"id", j.id},
          {"uid", j.uid},
          {"spec_id", j.spec_id},
          {"name", bytes_to_json(j.name)},
          {"backend", j.backend},
          {"array_job_id", opt(j.array_job_id)},
          {"array_index", opt(j.array_index)},
          {"array_max_running", j.array_max_running},
          {"priority", j.priority},
          {"cpus", j.cpus},
          {"mem_bytes", j.mem_bytes},
          {"gpus", j.gpus},
          {"walltime_s", j.walltime_s},
          {"state", to_string(j.state)},
          {"reason", bytes_to_json(j.reason)},
          {"native_state", bytes_to_json(j.native_state)},
          {"submit_time", j.submit_time},
          {"start_time", opt(j.start_time)},
          {"end_time", opt(j.end_time)},
          {"stdout", bytes_to_json(j.stdout_path)},
          {"stderr", bytes_to_json(j.stderr_path)},
          {"alloc", bytes_to_json(j.alloc)},
          {"exit_code", opt(j.exit_code)},
          {"signal", opt(j.signal)},
          {"cpu_seconds", opt(j.cpu_seconds)},
          {"max_rss_bytes", opt(j.max_rss_bytes)},
          {"native_id", bytes_to_json(j.native_id)},
          {"submit_attempts", j.submit_attempts},
          {"cancel_requested", j.cancel_requested}};
}

JobRecord job_from_wire(const nlohmann::json& j) {
  JobRecord r;
  r.id = j.at("id").get<std::int64_t>();
  r.uid = j.value("uid", "");
  r.spec_id = j.value("spec_id", std::int64_t{0});
  r.name = bytes_at(j, "name");
  r.backend = j.value("backend", "");
  r.array_job_id = opt_from<std::int64_t>(j, "array_job_id");
  r.array_index = opt_from<std::int64_t>(j, "array_index");
  r.array_max_running = j.value("array_max_running", 0);
  r.priority = j.value("priority", 0);
  r.cpus = j.value("cpus", 1);
  r.mem_bytes = j.value("mem_bytes", std::int64_t{0});
  r.gpus = j.value("gpus", 0);
  r.walltime_s = j.value("walltime_s", std::int64_t{0});
  r.state = state_from(j.at("state"));
  r.reason = bytes_at(j, "reason");
  r.native_state = bytes_at(j, "native_state");
  r.submit_time = j.value("submit_time", 0.0);
  r.start_time = opt_from<double>(j, "start_time");
  r.end_time = opt_from<double>(j, "end_time");
  r.stdout_path = bytes_at(j, "stdout");
  r.stderr_path = bytes_at(j, "stderr");
  r.alloc = bytes_at(j, "alloc");
  r.exit_code = opt_from<std::int64_t>(j, "exit_code");
  r.signal = opt_from<std::int64_t>(j, "signal");
  r.cpu_seconds = opt_from<double>(j, "cpu_seconds");
  r.max_rss_bytes = opt_from<std::int64_t>(j, "max_rss_bytes");
  r.native_id = bytes_at(j, "native_id");
  r.submit_attempts = j.value("submit_attempts", 0);
  r.cancel_requested = j.value("cancel_requested", false);
  return r;
}

nlohmann::json event_to_wire(const JobEvent& e) {
  return {{"time", e.time}, {"state", to_string(e.state)}, {"detail", bytes_to_json(e.detail)}};
}

JobEvent event_from_wire(const nlohmann::json& j) {
  return {j.at("time").get<double>(), state_from(j.at("state")), bytes_at(j, "detail")};
}

nlohmann::json logged_event_to_wire(const LoggedEvent& e) {
  nlohmann::json j = event_to_wire(e.event);
  j["id"] = e.id;
  j["job"] = e.job_id;
  j["array_job_id"] = opt(e.array_job_id);
  j["array_index"] = opt(e.array_index);
  j["name"] = bytes_to_json(e.name);
  j["backend"] = e.backend;
  return j;
}

LoggedEvent logged_event_from_wire(const nlohmann::json& j) {
  LoggedEvent e;
  e.id = j.at("id").get<std::int64_t>();
  e.job_id = j.at("job").get<std::int64_t>();
  e.array_job_id = opt_from<std::int64_t>(j, "array_job_id");
  e.array_index = opt_from<std::int64_t>(j, "array_index");
  e.name = bytes_at(j, "name");
  e.backend = j.value("backend", "");
  e.event = event_from_wire(j);
  return e;
}

void query_to_wire(const JobQuery& q, nlohmann::json& out) {
  if (!q.ids.empty()) out["ids"] = q.ids;
  if (!q.states.empty()) {
    auto states = nlohmann::json::array();
    for (auto s : q.states) states.push_back(to_string(s));
    out["states"] = states;
  }
  if (!q.name.empty()) out["name"] = bytes_to_json(q.name);
  if (!q.backend.empty()) out["backend"] = q.backend;
  if (q.array_job_id) out["array_job_id"] = *q.array_job_id;
  if (q.submitted_after) out["submitted_after"] = *q.submitted_after;
  if (q.submitted_before) out["submitted_before"] = *q.submitted_before;
  if (q.after) out["after"] = q.after;
  if (q.limit) out["limit"] = q.limit;
}

JobQuery query_from_wire(const nlohmann::json& j) {
  JobQuery q;
  if (auto it = j.find("ids"); it != j.end()) q.ids = wire_integers(*it, "ids");
  if (auto it = j.find("states"); it != j.end())
    for (const auto& s : *it) q.states.push_back(state_from(s));
  q.name = bytes_at(j, "name");
  q.backend = j.value("backend", "");
  if (j.contains("array_job_id") && !j["array_job_id"].is_null()) q.array_job_id = wire_integer(j, "array_job_id", 0);
  q.submitted_after = opt_from<double>(j, "submitted_after");
  q.submitted_before = opt_from<double>(j, "submitted_before");
  q.after = wire_integer(j, "after", 0);
  const std::int64_t limit = wire_integer(j, "limit", 0);
  if (limit < 0) throw std::invalid_argument("\"limit\" must not be negative");
  q.limit = static_cast<std::size_t>(limit);
  return q;
}

}  // namespace yard
