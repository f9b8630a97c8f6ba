#include "protocol/job_wire.h"

#include <cstdint>
#include <stdexcept>

#include "core/byte_json.h"
#include "core/json_out.h"

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

namespace {

// Every field of a job on the wire, once: its name, how it is written and how it is read
// (a missing one keeps its default). Objects and table rows are both made from this.
struct Field {
  const char* name;
  nlohmann::json (*get)(const JobRecord&);
  void (*set)(JobRecord&, const nlohmann::json&);
  void (*write)(std::string&, const JobRecord&);  // as get's value dumps, into a row
};

#define YARD_INT(key, member, type)                                             \
  Field {                                                                       \
    key, [](const JobRecord& j) { return nlohmann::json(j.member); },           \
        [](JobRecord& r, const nlohmann::json& v) { r.member = static_cast<type>(integer_value(v, key)); }, \
        [](std::string& out, const JobRecord& j) { json_out::integer(out, j.member); }                   \
  }
#define YARD_OPT_INT(key, member)                                                                     \
  Field {                                                                                             \
    key, [](const JobRecord& j) { return opt(j.member); }, [](JobRecord& r, const nlohmann::json& v) { \
      if (!v.is_null()) r.member = integer_value(v, key);                                             \
    }, [](std::string& out, const JobRecord& j) { json_out::optional(out, j.member); }                 \
  }
#define YARD_OPT_REAL(key, member)                                                                    \
  Field {                                                                                             \
    key, [](const JobRecord& j) { return opt(j.member); }, [](JobRecord& r, const nlohmann::json& v) { \
      if (!v.is_null()) r.member = v.get<double>();                                                   \
    }, [](std::string& out, const JobRecord& j) { json_out::optional(out, j.member); }                 \
  }
#define YARD_BYTES(key, member)                                                                     \
  Field {                                                                                           \
    key, [](const JobRecord& j) { return bytes_to_json(j.member); },                                \
        [](JobRecord& r, const nlohmann::json& v) { r.member = bytes_from_json(v); },               \
        [](std::string& out, const JobRecord& j) { json_out::bytes(out, j.member); }                \
  }

const Field kFields[] = {
    YARD_INT("id", id, std::int64_t),
    YARD_BYTES("uid", uid),
    YARD_INT("spec_id", spec_id, std::int64_t),
    YARD_BYTES("name", name),
    YARD_BYTES("backend", backend),
    YARD_OPT_INT("array_job_id", array_job_id),
    YARD_OPT_INT("array_index", array_index),
    YARD_INT("array_max_running", array_max_running, int),
    YARD_INT("priority", priority, int),
    YARD_INT("cpus", cpus, int),
    YARD_INT("mem_bytes", mem_bytes, std::int64_t),
    YARD_INT("gpus", gpus, int),
    YARD_INT("walltime_s", walltime_s, std::int64_t),
    Field{"state", [](const JobRecord& j) { return nlohmann::json(to_string(j.state)); },
          [](JobRecord& r, const nlohmann::json& v) { r.state = state_from(v); },
          [](std::string& out, const JobRecord& j) { json_out::string_utf8(out, to_string(j.state)); }},
    YARD_BYTES("reason", reason),
    YARD_BYTES("native_state", native_state),
    Field{"submit_time", [](const JobRecord& j) { return nlohmann::json(j.submit_time); },
          [](JobRecord& r, const nlohmann::json& v) { r.submit_time = v.get<double>(); },
          [](std::string& out, const JobRecord& j) { json_out::real(out, j.submit_time); }},
    YARD_OPT_REAL("start_time", start_time),
    YARD_OPT_REAL("end_time", end_time),
    YARD_BYTES("stdout", stdout_path),
    YARD_BYTES("stderr", stderr_path),
    YARD_BYTES("alloc", alloc),
    YARD_OPT_INT("exit_code", exit_code),
    YARD_OPT_INT("signal", signal),
    YARD_OPT_REAL("cpu_seconds", cpu_seconds),
    YARD_OPT_INT("max_rss_bytes", max_rss_bytes),
    YARD_BYTES("native_id", native_id),
    YARD_INT("submit_attempts", submit_attempts, int),
    YARD_INT("retries", retries, int),
    Field{"cancel_requested", [](const JobRecord& j) { return nlohmann::json(j.cancel_requested); },
          [](JobRecord& r, const nlohmann::json& v) { r.cancel_requested = v.get<bool>(); },
          [](std::string& out, const JobRecord& j) { out += j.cancel_requested ? "true" : "false"; }},
    Field{"held", [](const JobRecord& j) { return nlohmann::json(j.held); },
          [](JobRecord& r, const nlohmann::json& v) { r.held = v.get<bool>(); },
          [](std::string& out, const JobRecord& j) { out += j.held ? "true" : "false"; }},
};

#undef YARD_INT
#undef YARD_OPT_INT
#undef YARD_OPT_REAL
#undef YARD_BYTES

}  // namespace

nlohmann::json job_to_wire(const JobRecord& j) {
  nlohmann::json o = nlohmann::json::object();
  for (const Field& f : kFields) o[f.name] = f.get(j);
  return o;
}

JobRecord job_from_wire(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("a job must be an object");
  if (!j.contains("id") || !j.contains("state")) throw std::invalid_argument("a job needs an id and a state");
  JobRecord r;
  for (const Field& f : kFields)
    if (auto it = j.find(f.name); it != j.end()) f.set(r, *it);
  return r;
}

std::string jobs_to_wire_table(const std::vector<JobRecord>& jobs) {
  std::string out = "{\"columns\":[";
  for (const Field& f : kFields) {
    if (&f != kFields) out += ',';
    json_out::string_utf8(out, f.name);
  }
  out += "],\"rows\":[";
  out.reserve(out.size() + jobs.size() * 400);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    out += i ? ",[" : "[";
    for (const Field& f : kFields) {
      if (&f != kFields) out += ',';
      f.write(out, jobs[i]);
    }
    out += ']';
  }
  out += "]}";
  return out;
}

std::vector<JobRecord> jobs_from_wire_table(const nlohmann::json& table) {
  // Which of our fields each column is (a column we do not know is skipped: a newer
  // daemon may say more).
  std::vector<const Field*> setters;
  bool has_id = false;
  for (const auto& c : table.at("columns")) {
    const std::string name = c.get<std::string>();
    const Field* found = nullptr;
    for (const Field& f : kFields)
      if (name == f.name) found = &f;
    has_id = has_id || name == "id";
    setters.push_back(found);
  }
  if (!has_id) throw std::invalid_argument("a job table needs an id column");
  std::vector<JobRecord> out;
  const auto& rows = table.at("rows");
  out.reserve(rows.size());
  for (const auto& row : rows) {
    if (!row.is_array() || row.size() != setters.size())
      throw std::invalid_argument("a job row does not match the table's columns");
    JobRecord r;
    for (std::size_t i = 0; i < setters.size(); ++i)
      if (setters[i]) setters[i]->set(r, row[i]);
    out.push_back(std::move(r));
  }
  return out;
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
