// The flows' codec (protocol/flows.h): requests, replies, and the records they carry.
// Names and paths are bytes (core/byte_json.h).
#include "protocol/flows.h"

#include "core/byte_json.h"
#include "protocol/codec.h"
#include "protocol/job_wire.h"

namespace yard {

nlohmann::json flow_to_wire(const FlowRecord& f) {
  return {{"id", f.id},
          {"name", bytes_to_json(f.name)},
          {"file", bytes_to_json(f.file)},
          {"run_dir", bytes_to_json(f.run_dir)},
          {"submit_time", f.submit_time},
          {"steps", f.steps},
          {"pending", f.pending},
          {"running", f.running},
          {"completed", f.completed},
          {"failed", f.failed},
          {"submitted", f.submitted},
          {"attached", f.attached},
          {"up_to_date", f.up_to_date}};
}

FlowRecord flow_from_wire(const nlohmann::json& j) {
  FlowRecord f;
  f.id = wire_integer(j, "id", 0);
  f.name = bytes_from_json(j.at("name"));
  f.file = bytes_from_json(j.at("file"));
  f.run_dir = bytes_from_json(j.at("run_dir"));
  f.submit_time = j.value("submit_time", 0.0);
  f.steps = wire_integer(j, "steps", 0);
  f.pending = wire_integer(j, "pending", 0);
  f.running = wire_integer(j, "running", 0);
  f.completed = wire_integer(j, "completed", 0);
  f.failed = wire_integer(j, "failed", 0);
  f.submitted = wire_integer(j, "submitted", 0);
  f.attached = wire_integer(j, "attached", 0);
  f.up_to_date = wire_integer(j, "up_to_date", 0);
  return f;
}

nlohmann::json step_to_wire(const FlowStepRecord& s) {
  return {{"index", s.index},     {"name", bytes_to_json(s.name)}, {"key", s.key},
          {"job_id", s.job_id},   {"origin", to_string(s.origin)}, {"state", to_string(s.state)},
          {"jobs", s.jobs},       {"jobs_ended", s.jobs_ended}, {"parts", bytes_to_json(s.parts)}};
}

FlowStepRecord step_from_wire(const nlohmann::json& j) {
  FlowStepRecord s;
  s.index = static_cast<std::int32_t>(wire_integer(j, "index", 0));
  s.name = bytes_from_json(j.at("name"));
  s.key = j.value("key", "");
  if (auto parts = j.find("parts"); parts != j.end()) s.parts = bytes_from_json(*parts);
  s.job_id = wire_integer(j, "job_id", 0);
  const std::string origin = j.value("origin", "submitted");
  auto o = step_origin_from(origin);
  if (!o) throw std::invalid_argument("unknown step origin '" + origin + "'");
  s.origin = *o;
  const std::string state = j.value("state", "PENDING");
  auto st = parse_job_state(state);
  if (!st) throw std::invalid_argument("unknown state '" + state + "'");
  s.state = *st;
  s.jobs = static_cast<std::int32_t>(wire_integer(j, "jobs", 1));
  s.jobs_ended = static_cast<std::int32_t>(wire_integer(j, "jobs_ended", 0));
  return s;
}

nlohmann::json digest_to_wire(const FileDigest& d) {
  return {{"path", bytes_to_json(d.path)}, {"size", d.size}, {"mtime_ns", d.mtime_ns}, {"inode", d.inode}, {"digest", d.digest}};
}

FileDigest digest_from_wire(const nlohmann::json& j) {
  FileDigest d;
  d.path = bytes_from_json(j.at("path"));
  d.size = wire_integer(j, "size", 0);
  d.mtime_ns = wire_integer(j, "mtime_ns", 0);
  d.inode = wire_integer(j, "inode", 0);
  d.digest = j.value("digest", "");
  return d;
}

nlohmann::json flow_request_json(const FlowsRequest& r) { return {{"op", "flows"}, {"limit", r.limit}}; }
nlohmann::json flow_request_json(const FlowRequest& r) { return {{"op", "flow"}, {"id", r.id}}; }
nlohmann::json flow_request_json(const DigestsRequest& r) {
  auto paths = nlohmann::json::array();
  for (const auto& p : r.paths) paths.push_back(bytes_to_json(p));
  return {{"op", "digests"}, {"paths", std::move(paths)}};
}

std::optional<Result<Request>> decode_flow_request(const std::string& op, const nlohmann::json& j) {
  try {
    if (op == "flows") {
      FlowsRequest r;
      r.limit = wire_integer(j, "limit", 0);
      if (r.limit < 0) return Result<Request>(err("malformed flows request: a negative \"limit\""));
      return Result<Request>(Request{r});
    }
    if (op == "flow") {
      FlowRequest r;
      r.id = wire_integer(j, "id", 0);
      if (r.id <= 0) return Result<Request>(err("malformed flow request: \"id\" must be a flow id (a positive integer)"));
      return Result<Request>(Request{r});
    }
    if (op == "digests") {
      DigestsRequest r;
      const auto& paths = j.at("paths");
      if (!paths.is_array()) return Result<Request>(err("malformed digests request: \"paths\" is not a list"));
      for (const auto& p : paths) r.paths.push_back(bytes_from_json(p));
      return Result<Request>(Request{std::move(r)});
    }
  } catch (const std::exception& e) {
    return Result<Request>(err("malformed " + op + " request: " + e.what()));
  }
  return std::nullopt;
}

std::string encode_reply(const FlowsReply& r) {
  auto flows = nlohmann::json::array();
  for (const auto& f : r.flows) flows.push_back(flow_to_wire(f));
  return line_of({{"ok", true}, {"flows", std::move(flows)}});
}

std::string encode_reply(const FlowReply& r) {
  auto steps = nlohmann::json::array();
  for (const auto& s : r.steps) steps.push_back(step_to_wire(s));
  return line_of({{"ok", true}, {"flow", flow_to_wire(r.flow)}, {"steps", std::move(steps)}});
}

std::string encode_reply(const DigestsReply& r) {
  auto digests = nlohmann::json::array();
  for (const auto& d : r.digests) digests.push_back(digest_to_wire(d));
  return line_of({{"ok", true}, {"digests", std::move(digests)}});
}

Result<FlowsReply> decode_flows_reply(std::string_view line) {
  return decode_with<FlowsReply>(line, [](const nlohmann::json& j) {
    FlowsReply r;
    for (const auto& f : j.at("flows")) r.flows.push_back(flow_from_wire(f));
    return r;
  });
}

Result<FlowReply> decode_flow_reply(std::string_view line) {
  return decode_with<FlowReply>(line, [](const nlohmann::json& j) {
    FlowReply r;
    r.flow = flow_from_wire(j.at("flow"));
    for (const auto& s : j.at("steps")) r.steps.push_back(step_from_wire(s));
    return r;
  });
}

Result<DigestsReply> decode_digests_reply(std::string_view line) {
  return decode_with<DigestsReply>(line, [](const nlohmann::json& j) {
    DigestsReply r;
    for (const auto& d : j.at("digests")) r.digests.push_back(digest_from_wire(d));
    return r;
  });
}

}  // namespace yard
