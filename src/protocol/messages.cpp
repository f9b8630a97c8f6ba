#include "protocol/messages.h"

#include <unistd.h>

#include "protocol/codec.h"
#include "core/byte_json.h"
#include "protocol/job_wire.h"

namespace yard {
namespace {

struct Encode {
  nlohmann::json operator()(const SubmitRequest& r) const {
    nlohmann::json j{{"op", "submit"}, {"spec", r.spec}};
    if (!r.job_class.empty()) j["class"] = r.job_class;
    if (!r.key.empty()) j["key"] = r.key;
    if (r.test_only) j["test_only"] = true;
    return j;
  }
  nlohmann::json operator()(const SubmitManyRequest& r) const {
    nlohmann::json jobs = nlohmann::json::array();
    for (const auto& job : r.jobs) {
      nlohmann::json one{{"spec", job.spec}};
      if (!job.job_class.empty()) one["class"] = job.job_class;
      if (!job.needs.empty()) one["needs"] = job.needs;
      if (job.own_env) one["own_env"] = true;
      if (!job.key.empty()) one["key"] = job.key;
      if (!job.parts.empty()) one["parts"] = bytes_to_json(job.parts);
      if (!job.outputs.empty()) {
        auto outputs = nlohmann::json::array();
        for (const auto& o : job.outputs) outputs.push_back(bytes_to_json(o));
        one["outputs"] = std::move(outputs);
      }
      if (job.rerun) one["rerun"] = true;
      if (!job.pack.empty()) one["pack"] = bytes_to_json(job.pack);
      if (job.group > 1) one["group"] = job.group;
      jobs.push_back(std::move(one));
    }
    nlohmann::json j{{"op", "submit_many"}, {"env", r.env}, {"jobs", std::move(jobs)}};
    if (!r.key.empty()) j["key"] = r.key;
    if (r.flow) {
      auto digests = nlohmann::json::array();
      for (const auto& d : r.flow->digests) digests.push_back(digest_to_wire(d));
      j["flow"] = {{"name", bytes_to_json(r.flow->name)},
                   {"file", bytes_to_json(r.flow->file)},
                   {"run_dir", bytes_to_json(r.flow->run_dir)},
                   {"digests", std::move(digests)}};
    }
    return j;
  }
  nlohmann::json operator()(const CancelRequest& r) const { return {{"op", "cancel"}, {"ids", r.ids}}; }
  nlohmann::json operator()(const JobActionRequest& r) const {
    return {{"op", std::string(to_string(r.action))}, {"ids", r.ids}};
  }
  nlohmann::json operator()(const PingRequest&) const { return {{"op", "ping"}}; }
  nlohmann::json operator()(const ShutdownRequest& r) const { return {{"op", "shutdown"}, {"kill_jobs", r.kill_jobs}}; }
  nlohmann::json operator()(const FlowsRequest& r) const { return flow_request_json(r); }
  nlohmann::json operator()(const FlowRequest& r) const { return flow_request_json(r); }
  nlohmann::json operator()(const DigestsRequest& r) const { return flow_request_json(r); }
  template <typename Query>
  nlohmann::json operator()(const Query& r) const {
    return query_request_json(r);
  }
};

// A submit_many request: each job's spec, class and needs (earlier jobs only), checked.
Result<Request> decode_submit_many(const nlohmann::json& j) {
  SubmitManyRequest r;
  try {
    r.key = j.value("key", "");
    if (auto env = j.find("env"); env != j.end()) r.env = env->get<std::map<std::string, std::string>>();
    const auto& jobs = j.at("jobs");
    if (!jobs.is_array()) return err("malformed submit_many request: jobs is not a list");
    r.jobs.reserve(jobs.size());
    for (const auto& one : jobs) {
      SubmitManyRequest::Job job;
      try {
        job.spec = one.at("spec").get<JobSpec>();
      } catch (const std::exception& e) {
        return err("malformed job spec of job " + std::to_string(r.jobs.size()) + ": " + e.what());
      }
      job.job_class = one.value("class", "");
      job.own_env = one.value("own_env", false);
      job.key = one.value("key", "");
      if (auto parts = one.find("parts"); parts != one.end()) job.parts = bytes_from_json(*parts);
      if (auto outputs = one.find("outputs"); outputs != one.end())
        for (const auto& o : *outputs) job.outputs.push_back(bytes_from_json(o));
      job.rerun = one.value("rerun", false);
      if (auto pack = one.find("pack"); pack != one.end()) job.pack = bytes_from_json(*pack);
      if (auto group = one.find("group"); group != one.end()) {
        job.group = group->get<std::int32_t>();
        if (job.group < 0 || job.group > 100000)
          return err("malformed submit_many request: job " + std::to_string(r.jobs.size()) + ": group " +
                     std::to_string(job.group) + " is not from 0 to 100000");
      }
      if (auto needs = one.find("needs"); needs != one.end()) job.needs = needs->get<std::vector<std::int32_t>>();
      for (auto n : job.needs)
        if (n < 0 || static_cast<std::size_t>(n) >= r.jobs.size())
          return err("malformed submit_many request: job " + std::to_string(r.jobs.size()) + " needs job " +
                     std::to_string(n) + ", which is not an earlier job of the request");
      r.jobs.push_back(std::move(job));
    }
    if (auto flow = j.find("flow"); flow != j.end()) {
      SubmitManyRequest::FlowRun run;
      run.name = bytes_from_json(flow->at("name"));
      run.file = bytes_from_json(flow->at("file"));
      run.run_dir = bytes_from_json(flow->at("run_dir"));
      if (auto digests = flow->find("digests"); digests != flow->end())
        for (const auto& d : *digests) run.digests.push_back(digest_from_wire(d));
      r.flow = std::move(run);
    }
  } catch (const std::exception& e) {
    return err(std::string("malformed submit_many request: ") + e.what());
  }
  return Request{std::move(r)};
}

}  // namespace

Result<nlohmann::json> reply_object(std::string_view line) {
  nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Error{"bad reply from the daemon: not a JSON object", ErrorKind::Internal};
  const auto ok = j.find("ok");
  if (ok == j.end() || !ok->is_boolean()) return Error{"bad reply from the daemon: no \"ok\"", ErrorKind::Internal};
  if (!ok->get<bool>()) {
    const auto e = j.find("error");
    const auto k = j.find("kind");
    return Error{e != j.end() && e->is_string() ? e->get<std::string>() : "the daemon refused the request",
                 k != j.end() && k->is_string() ? error_kind_from_name(k->get<std::string>()) : ErrorKind::Invalid};
  }
  return j;
}

std::string encode_request(const Request& r) { return line_of(std::visit(Encode{}, r)); }

Result<Request> decode_request(std::string_view line) {
  nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return err("malformed request: not JSON");
  if (!j.is_object()) return err("malformed request: not a JSON object");
  const auto op_it = j.find("op");
  const std::string op = op_it != j.end() && op_it->is_string() ? op_it->get<std::string>() : "";
  try {
    if (op == "submit") {
      SubmitRequest r;
      try {
        r.spec = j.at("spec").get<JobSpec>();
      } catch (const std::exception& e) {
        return err(std::string("malformed job spec: ") + e.what());
      }
      r.job_class = j.value("class", "");
      r.key = j.value("key", "");
      r.test_only = j.value("test_only", false);
      return Request{std::move(r)};
    }
    if (op == "submit_many") return decode_submit_many(j);
    if (op == "cancel") {
      Request r{std::in_place_type<CancelRequest>};
      try {
        std::get<CancelRequest>(r).ids = wire_integers(j.at("ids"), "ids");
      } catch (const std::exception& e) {
        return err(std::string("malformed cancel request: ") + e.what());
      }
      return r;
    }
    if (auto action = job_action_from(op)) {
      Request r{JobActionRequest{*action, {}}};
      try {
        std::get<JobActionRequest>(r).ids = wire_integers(j.at("ids"), "ids");
      } catch (const std::exception& e) {
        return err("malformed " + op + " request: " + e.what());
      }
      return r;
    }
    if (op == "ping") return Request{PingRequest{}};
    if (op == "shutdown") return Request{ShutdownRequest{j.value("kill_jobs", false)}};
    if (auto r = decode_query_request(op, j)) return std::move(*r);
    if (auto r = decode_flow_request(op, j)) return std::move(*r);
  } catch (const std::exception& e) {
    return err(std::string("malformed request: ") + e.what());
  }
  return err("unknown request '" + op + "'");
}

std::string encode_reply(const SubmitReply& r) {
  nlohmann::json j{{"ok", true}, {"ids", r.ids}};
  if (r.job) j["job"] = *r.job;
  if (!r.warnings.empty()) j["warnings"] = r.warnings;
  if (!r.route.empty()) j["route"] = r.route;
  return line_of(j);
}
std::string encode_reply(const SubmitManyReply& r) {
  nlohmann::json j{{"ok", true}, {"ids", r.ids}};
  if (!r.warnings.empty()) j["warnings"] = r.warnings;
  if (r.flow_id) {
    j["flow_id"] = r.flow_id;
    auto origins = nlohmann::json::array();
    for (auto o : r.origins) origins.push_back(to_string(o));
    j["origins"] = std::move(origins);
  }
  return line_of(j);
}
std::string encode_reply(const CancelReply& r) { return line_of({{"ok", true}, {"ids", r.ids}}); }
std::string encode_reply(const ShutdownReply&) { return line_of({{"ok", true}}); }

nlohmann::json ping_json(const PingReply& r) {
  nlohmann::json j = r.backends.is_object() ? r.backends : nlohmann::json::object();
  j["pid"] = r.pid;
  j["socket"] = r.socket;
  j["store"] = r.store;
  j["last_event"] = r.last_event;
  return j;
}

std::string encode_reply(const PingReply& r) {
  nlohmann::json j = ping_json(r);
  j["ok"] = true;
  return line_of(j);
}

std::string encode_error(const Error& e) {
  return line_of({{"ok", false}, {"error", e.message}, {"kind", error_kind_name(e.kind)}});
}

Result<SubmitReply> decode_submit_reply(std::string_view line) {
  return decode_with<SubmitReply>(line, [](const nlohmann::json& j) {
    SubmitReply r{j.at("ids").get<std::vector<std::int64_t>>(), std::nullopt, {}, ""};
    if (auto job = j.find("job"); job != j.end()) r.job = job->get<JobSpec>();
    if (auto w = j.find("warnings"); w != j.end()) r.warnings = w->get<std::vector<std::string>>();
    r.route = j.value("route", "");
    return r;
  });
}

Result<SubmitManyReply> decode_submit_many_reply(std::string_view line) {
  return decode_with<SubmitManyReply>(line, [](const nlohmann::json& j) {
    SubmitManyReply r;
    r.ids = j.at("ids").get<std::vector<std::vector<std::int64_t>>>();
    if (auto w = j.find("warnings"); w != j.end()) r.warnings = w->get<std::vector<std::string>>();
    r.flow_id = wire_integer(j, "flow_id", 0);
    if (auto origins = j.find("origins"); origins != j.end())
      for (const auto& o : *origins) {
        auto origin = step_origin_from(o.get<std::string>());
        if (!origin) throw std::invalid_argument("unknown step origin");
        r.origins.push_back(*origin);
      }
    return r;
  });
}

Result<CancelReply> decode_cancel_reply(std::string_view line) {
  return decode_with<CancelReply>(line, [](const nlohmann::json& j) {
    return CancelReply{j.at("ids").get<std::vector<std::int64_t>>()};
  });
}

Result<PingReply> decode_ping_reply(std::string_view line) {
  return decode_with<PingReply>(line, [](nlohmann::json j) {
    PingReply r;
    r.pid = j.at("pid").get<long>();
    r.socket = j.value("socket", "");
    r.store = j.value("store", "");
    r.last_event = j.value("last_event", std::int64_t{0});
    for (const char* k : {"ok", "pid", "socket", "store", "last_event"}) j.erase(k);
    r.backends = std::move(j);
    return r;
  });
}

Result<ShutdownReply> decode_shutdown_reply(std::string_view line) {
  return decode_with<ShutdownReply>(line, [](const nlohmann::json&) { return ShutdownReply{}; });
}

}  // namespace yard
