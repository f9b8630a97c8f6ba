// What is the site's rather than a run's: the templates, usage per month, the routes and
// their health, the audit log (admins), and the OpenAPI document of all of the API.
#include <ctime>

#include "core/clock.h"
#include "web/api_routes.h"
#include "web/http_reply.h"
#include "web/openapi_document.h"
#include "web/run_view.h"

namespace yard::web {
namespace {

// "2026-11" of a time.
std::string month_of(double t) { return utc_text(t, "%Y-%m"); }

// The first instant of the month `back` months before now's.
double month_start(int back) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  tm.tm_mday = 1;
  tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
  tm.tm_mon -= back;
  return static_cast<double>(timegm(&tm));
}

nlohmann::json usage(Site& site, const User& user, int months, Error& failed) {
  const double since = month_start(months - 1);
  RunFilter filter;
  filter.owner = user.admin ? "" : user.name;
  filter.limit = 1000000;
  auto runs = site.db->runs(filter);
  std::map<std::int64_t, std::string> owner_of;
  for (const auto& r : runs)
    for (auto id : r.jobs) owner_of[id] = r.owner;
  std::map<std::string, std::string> account_of;
  for (const auto& u : site.db->users()) account_of[u.name] = u.account;
  std::vector<RunRow> recent;
  for (auto& r : runs)
    if (r.created >= since) recent.push_back(std::move(r));
  auto daemon = site.daemon();
  auto jobs = jobs_of(daemon, recent);
  if (!jobs) {
    failed = jobs.failure();
    return nullptr;
  }
  std::map<std::string, nlohmann::json> by_month;
  for (int back = months - 1; back >= 0; --back)
    by_month[month_of(month_start(back))] = {{"core_hours", {{"by_account", nlohmann::json::object()},
                                                             {"by_backend", nlohmann::json::object()}}},
                                             {"jobs_by_state", nlohmann::json::object()}};
  for (const auto& [id, job] : *jobs) {
    auto month = by_month.find(month_of(job.submit_time));
    if (month == by_month.end()) continue;
    auto& m = month->second;
    const std::string state(to_string(job.state));
    m["jobs_by_state"][state] = m["jobs_by_state"].value(state, 0) + 1;
    if (!job.start_time) continue;
    const double end = job.end_time.value_or(wall_now());
    const double hours = job.cpus * std::max(0.0, end - *job.start_time) / 3600;
    const std::string account = account_of.count(owner_of[id]) ? account_of[owner_of[id]] : owner_of[id];
    auto& acc = m["core_hours"]["by_account"];
    acc[account] = acc.value(account, 0.0) + hours;
    auto& back = m["core_hours"]["by_backend"];
    back[job.backend] = back.value(job.backend, 0.0) + hours;
  }
  nlohmann::json out = nlohmann::json::array();
  for (auto& [month, m] : by_month) {
    m["month"] = month;
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

void add_site_routes(httplib::Server& server, Site& site) {
  server.Get("/api/v1/templates", guarded(site, [&site](const Caller&, const httplib::Request&, httplib::Response& res) {
    auto templates = site.templates();
    if (!templates) return send_error(res, 500, "the site's templates cannot be read: " + templates.error());
    nlohmann::json out = nlohmann::json::array();
    for (const auto& t : *templates) out.push_back(describe(t));
    send_json(res, 200, {{"templates", out}});
  }));
  server.Get("/api/v1/usage", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    auto months = int_param(req, res, "months", 6, 1, 36);
    if (!months) return;
    Error failed;
    auto out = usage(site, c.user, static_cast<int>(*months), failed);
    if (out.is_null()) return send_failure(res, failed);
    send_json(res, 200, {{"months", out}});
  }));
  server.Get("/api/v1/routes", guarded(site, [&site](const Caller&, const httplib::Request&, httplib::Response& res) {
    auto daemon = site.daemon();
    auto routes = daemon.routes();
    if (!routes) return send_failure(res, routes.failure());
    send_json(res, 200, {{"routes", routes->routes}});
  }));
  server.Get("/api/v1/audit", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    if (!c.user.admin) return send_error(res, 403, "the audit log is for admins");
    auto limit = int_param(req, res, "limit", 100, 1, 10000);
    if (!limit) return;
    send_json(res, 200, {{"entries", site.db->audit_tail(static_cast<int>(*limit))}});
  }));
  server.Get("/api/v1/openapi.json", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(openapi_document(), "application/json");
  });
}

}  // namespace yard::web
