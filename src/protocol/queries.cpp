// The read side's codec (protocol/queries.h): requests, replies and stream lines.
#include "protocol/codec.h"
#include "protocol/job_wire.h"
#include "core/byte_json.h"

namespace yard {
namespace {

// A job id a client sent: a positive integer.
std::int64_t job_id_at(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) throw std::invalid_argument(std::string("no \"") + key + "\"");
  const auto id = wire_integer(j, key, 0);
  if (id <= 0) throw std::invalid_argument(std::string("\"") + key + "\" must be a job id (a positive integer)");
  return id;
}

}  // namespace

nlohmann::json query_request_json(const JobsRequest& r) {
  nlohmann::json j{{"op", "jobs"}};
  query_to_wire(r.query, j);
  return j;
}
nlohmann::json query_request_json(const JobRequest& r) { return {{"op", "job"}, {"id", r.id}}; }
nlohmann::json query_request_json(const LogsRequest& r) {
  return {{"op", "logs"},
          {"id", r.id},
          {"stream", r.stderr_stream ? "stderr" : "stdout"},
          {"offset", r.offset},
          {"limit", r.limit}};
}
nlohmann::json query_request_json(const AccountsRequest&) { return {{"op", "accounts"}}; }
nlohmann::json query_request_json(const RoutesRequest&) { return {{"op", "routes"}}; }
nlohmann::json query_request_json(const RoutesMoveRequest& r) {
  return {{"op", "routes_move"}, {"from", r.from}, {"to", r.to}, {"dry_run", r.dry_run}};
}
nlohmann::json query_request_json(const WaitRequest& r) { return {{"op", "wait"}, {"ids", r.ids}}; }
nlohmann::json query_request_json(const WatchRequest& r) {
  nlohmann::json j{{"op", "watch"}, {"since", r.since}, {"follow", r.follow}};
  query_to_wire(r.filter, j);
  return j;
}

std::optional<Result<Request>> decode_query_request(const std::string& op, const nlohmann::json& j) {
  try {
    if (op == "jobs") return Result<Request>(Request{JobsRequest{query_from_wire(j)}});
    if (op == "job") return Result<Request>(Request{JobRequest{job_id_at(j, "id")}});
    if (op == "logs") {
      LogsRequest r;
      r.id = job_id_at(j, "id");
      const std::string stream = j.value("stream", "stdout");
      if (stream != "stdout" && stream != "stderr")
        return Result<Request>(err("malformed logs request: \"stream\" is '" + stream + "', not stdout or stderr"));
      r.stderr_stream = stream == "stderr";
      r.offset = wire_integer(j, "offset", 0);
      r.limit = wire_integer(j, "limit", kMaxLogChunk);
      if (r.offset < 0 || r.limit < 0) return Result<Request>(err("malformed logs request: a negative offset or limit"));
      return Result<Request>(Request{r});
    }
    if (op == "accounts") return Result<Request>(Request{AccountsRequest{}});
    if (op == "routes") return Result<Request>(Request{RoutesRequest{}});
    if (op == "routes_move") {
      RoutesMoveRequest r{j.at("from").get<std::string>(), j.at("to").get<std::string>(), j.value("dry_run", false)};
      if (r.from.empty() || r.to.empty()) return Result<Request>(err("malformed routes_move request: an empty backend"));
      return Result<Request>(Request{std::move(r)});
    }
    if (op == "wait") {
      WaitRequest r;
      r.ids = wire_integers(j.at("ids"), "ids");
      if (r.ids.empty()) return Result<Request>(err("malformed wait request: no ids"));
      return Result<Request>(Request{std::move(r)});
    }
    if (op == "watch") {
      WatchRequest r;
      r.since = wire_integer(j, "since", 0);
      if (r.since < 0) return Result<Request>(err("malformed watch request: a negative \"since\""));
      r.follow = j.value("follow", true);
      r.filter = query_from_wire(j);
      return Result<Request>(Request{std::move(r)});
    }
  } catch (const std::exception& e) {
    return Result<Request>(err("malformed " + op + " request: " + e.what()));
  }
  return std::nullopt;
}

std::string encode_reply(const JobsReply& r) {
  return "{\"jobs\":" + jobs_to_wire_table(r.jobs) + ",\"next\":" + std::to_string(r.next) + ",\"ok\":true}";
}

std::string encode_reply(const JobReply& r) {
  auto events = nlohmann::json::array();
  for (const auto& e : r.events) events.push_back(event_to_wire(e));
  return line_of({{"ok", true}, {"job", job_to_wire(r.job)}, {"spec", r.spec}, {"events", events}});
}

std::string encode_reply(const LogsReply& r) {
  return line_of({{"ok", true},
                  {"path", bytes_to_json(r.path)},
                  {"data", bytes_to_json(r.data)},
                  {"offset", r.offset},
                  {"size", r.size},
                  {"ended", r.ended}});
}

std::string encode_reply(const AccountsReply& r) {
  auto a = nlohmann::json::array();
  for (const auto& x : r.accounts)
    a.push_back({{"account", bytes_to_json(x.account)},
                 {"tier", x.tier},
                 {"best_effort", x.best_effort},
                 {"share", x.share},
                 {"fairshare", x.fairshare},
                 {"used_core_seconds", x.used_core_seconds},
                 {"decayed_usage_core_seconds", x.decayed_usage_core_seconds},
                 {"allocation_core_seconds", x.allocation_core_seconds},
                 {"remaining_core_seconds", x.remaining_core_seconds}});
  auto t = nlohmann::json::array();
  for (const auto& x : r.by_target)
    t.push_back({{"account", bytes_to_json(x.account)},
                 {"target", x.target},
                 {"core_seconds", x.core_seconds},
                 {"jobs", x.jobs}});
  return line_of({{"ok", true}, {"accounts", a}, {"by_target", t}});
}

std::string encode_reply(const RoutesReply& r) { return line_of({{"ok", true}, {"routes", r.routes}}); }

std::string encode_reply(const RoutesMoveReply& r) {
  auto stay = nlohmann::json::array();
  for (const auto& s : r.stay) stay.push_back({{"id", s.id}, {"why", s.why}});
  return line_of({{"ok", true}, {"moved", r.moved}, {"leaving", r.leaving}, {"stay", stay}});
}

std::string encode_reply(const WaitReply& r) {
  return "{\"jobs\":" + jobs_to_wire_table(r.jobs) + ",\"ok\":true}";
}

std::string encode_reply(const WatchLine& r) {
  if (r.event) return line_of({{"ok", true}, {"event", logged_event_to_wire(*r.event)}});
  return line_of({{"ok", true}, {"end", r.end}});
}

Result<JobsReply> decode_jobs_reply(std::string_view line) {
  return decode_with<JobsReply>(line, [](const nlohmann::json& j) {
    return JobsReply{jobs_from_wire_table(j.at("jobs")), wire_integer(j, "next", 0)};
  });
}

Result<JobReply> decode_job_reply(std::string_view line) {
  return decode_with<JobReply>(line, [](const nlohmann::json& j) {
    JobReply r{job_from_wire(j.at("job")), j.at("spec").get<JobSpec>(), {}};
    for (const auto& e : j.at("events")) r.events.push_back(event_from_wire(e));
    return r;
  });
}

Result<LogsReply> decode_logs_reply(std::string_view line) {
  return decode_with<LogsReply>(line, [](const nlohmann::json& j) {
    return LogsReply{bytes_from_json(j.at("path")), bytes_from_json(j.at("data")), j.at("offset").get<std::int64_t>(),
                     j.at("size").get<std::int64_t>(), j.at("ended").get<bool>()};
  });
}

Result<RoutesReply> decode_routes_reply(std::string_view line) {
  return decode_with<RoutesReply>(line, [](const nlohmann::json& j) { return RoutesReply{j.at("routes")}; });
}

Result<RoutesMoveReply> decode_routes_move_reply(std::string_view line) {
  return decode_with<RoutesMoveReply>(line, [](const nlohmann::json& j) {
    RoutesMoveReply r{j.at("moved").get<std::vector<std::int64_t>>(),
                      j.value("leaving", std::vector<std::int64_t>{}), {}};
    for (const auto& s : j.at("stay")) r.stay.push_back({s.at("id").get<std::int64_t>(), s.value("why", "")});
    return r;
  });
}

Result<AccountsReply> decode_accounts_reply(std::string_view line) {
  return decode_with<AccountsReply>(line, [](const nlohmann::json& j) {
    AccountsReply r;
    for (const auto& x : j.at("accounts"))
      r.accounts.push_back({bytes_from_json(x.at("account")), x.value("tier", ""), x.value("best_effort", false),
                            x.value("share", 0.0), x.value("fairshare", 0.0), x.value("used_core_seconds", 0.0),
                            x.value("decayed_usage_core_seconds", 0.0), x.value("allocation_core_seconds", 0.0),
                            x.value("remaining_core_seconds", 0.0)});
    if (auto t = j.find("by_target"); t != j.end())
      for (const auto& x : *t)
        r.by_target.push_back({bytes_from_json(x.at("account")), x.value("target", ""), x.value("core_seconds", 0.0),
                               x.value("jobs", std::int64_t{0})});
    return r;
  });
}

Result<WaitReply> decode_wait_reply(std::string_view line) {
  return decode_with<WaitReply>(line,
                                [](const nlohmann::json& j) { return WaitReply{jobs_from_wire_table(j.at("jobs"))}; });
}

Result<WatchLine> decode_watch_line(std::string_view line) {
  return decode_with<WatchLine>(line, [](const nlohmann::json& j) {
    WatchLine w;
    if (auto e = j.find("event"); e != j.end()) w.event = logged_event_from_wire(*e);
    else w.end = j.at("end").get<std::int64_t>();
    return w;
  });
}

}  // namespace yard
