#include "server/requests.h"

#include <unistd.h>

namespace yard {
namespace {

nlohmann::json submit(DaemonState& d, const nlohmann::json& req, double now) {
  // A submission carries the client's key: a client that lost its connection sends it
  // again, and gets the ids its first try stored (exactly once).
  const std::string key = req.value("key", "");
  auto earlier = key.empty() ? Result<std::optional<std::vector<std::int64_t>>>(std::nullopt) : d.store.submission(key);
  if (!earlier) return error_reply(earlier.failure());
  if (*earlier) return {{"ok", true}, {"ids", **earlier}};
  if (d.draining) return error_reply("the daemon is shutting down", ErrorKind::Unavailable);
  JobSpec spec;
  try {
    spec = req.at("spec").get<JobSpec>();
  } catch (const std::exception& e) {
    return error_reply(std::string("malformed job spec: ") + e.what());
  }
  auto ids = d.backends.submit(std::move(spec), req.value("class", ""), now);
  if (ids && !key.empty())
    if (auto s = d.store.record_submission(key, *ids, now); !s) ids = s.failure();
  return ids ? nlohmann::json{{"ok", true}, {"ids", *ids}} : error_reply(ids.failure());
}

nlohmann::json cancel(DaemonState& d, const nlohmann::json& req, double now) {
  std::vector<std::int64_t> ids;
  try {
    ids = req.at("ids").get<std::vector<std::int64_t>>();
  } catch (const std::exception& e) {
    return error_reply(std::string("malformed cancel request: ") + e.what());
  }
  auto acted = d.backends.cancel(d.store, ids, now);
  return acted ? nlohmann::json{{"ok", true}, {"ids", *acted}} : error_reply(acted.failure());
}

nlohmann::json ping(DaemonState& d) {
  nlohmann::json reply{{"ok", true}, {"pid", ::getpid()}, {"socket", d.paths.socket}, {"store", d.paths.store}};
  reply.update(d.backends.describe());
  return reply;
}

nlohmann::json shutdown(DaemonState& d, const nlohmann::json& req) {
  if (req.value("kill_jobs", false)) {
    d.draining = true;
    for (const auto& b : d.backends.all()) b->cancel_all_running();
  } else {
    d.stopping = true;
  }
  return {{"ok", true}};
}

}  // namespace

nlohmann::json error_reply(const std::string& message, ErrorKind kind) {
  return {{"ok", false}, {"error", message}, {"kind", error_kind_name(kind)}};
}

nlohmann::json handle_request(DaemonState& d, const std::string& line, double now) {
  nlohmann::json req;
  try {
    req = nlohmann::json::parse(line);
    const std::string op = req.value("op", "");
    if (op == "submit") return submit(d, req, now);
    if (op == "cancel") return cancel(d, req, now);
    if (op == "ping") return ping(d);
    if (op == "shutdown") return shutdown(d, req);
    return error_reply("unknown request '" + op + "'");
  } catch (const std::exception& e) {
    return error_reply(std::string("malformed request: ") + e.what());
  }
}

}  // namespace yard
