// /api/v1/runs: start (from a template, a command or a workflow file), list, get, cancel, run
// again, resume (a workflow file's), logs.
#include "web/api_routes.h"

#include "core/byte_json.h"
#include "web/auth.h"
#include "web/http_reply.h"
#include "web/run_start.h"
#include "web/run_view.h"
#include "web/workflow_runs.h"

namespace yard::web {
namespace {

void send_run(Site& site, httplib::Response& res, int status, const RunRow& run) {
  auto shown = site.runs.runs(site, {run});
  if (!shown) return send_failure(res, shown.failure());
  send_json(res, status, {{"run", shown->front()}});
}


void start(Site& site, const Caller& c, httplib::Response& res, const std::string& template_name,
           const nlohmann::json& values, const std::string& webhook = "") {
  // A run of no template is a workflow file's (POST /api/v1/workflows) or a command's (POST
  // /api/v1/jobs): its values are what was posted.
  auto started = !template_name.empty()       ? start_run(site, c.user, template_name, values, webhook)
                 : values.contains("workflow") ? start_workflow_run(site, c.user, values, webhook)
                                               : start_command_run(site, c.user, values, webhook);
  if (auto* no = std::get_if<StartRefusal>(&started)) return send_error(res, no->status, no->message, no->field);
  send_run(site, res, 201, std::get<RunRow>(started));
}

// The body's "webhook" (taken out of it), checked against the site's prefixes; nothing
// after replying 400.
std::optional<std::string> take_webhook(Site& site, nlohmann::json& body, httplib::Response& res) {
  if (!body.contains("webhook")) return std::string();
  if (!body["webhook"].is_string()) {
    send_error(res, 400, "webhook: a URL (text)", "webhook");
    return std::nullopt;
  }
  std::string url = body["webhook"];
  body.erase("webhook");
  if (auto st = site.webhooks.check(url); !st) {
    send_error(res, 400, st.error(), "webhook");
    return std::nullopt;
  }
  return url;
}

}  // namespace

std::optional<RunRow> caller_run(Site& site, const Caller& c, const httplib::Request& req, httplib::Response& res) {
  std::int64_t id = 0;
  try {
    id = std::stoll(req.matches[1].str());
  } catch (const std::exception&) {
  }
  auto run = site.db->run(id);
  if (!run || !may_see(c.user, run->owner)) {
    send_error(res, 404, "no run " + req.matches[1].str());
    return std::nullopt;
  }
  return run;
}

void add_run_routes(httplib::Server& server, Site& site) {
  server.Post("/api/v1/runs", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    auto body = json_body(req, res, {"template", "values", "webhook"});
    if (!body) return;
    auto webhook = take_webhook(site, *body, res);
    if (!webhook) return;
    if (!body->value("template", nlohmann::json()).is_string() || (*body)["template"].get<std::string>().empty())
      return send_error(res, 400, "template: the name of a template (text)", "template");
    start(site, c, res, (*body)["template"], body->value("values", nlohmann::json::object()), *webhook);
  }));

  server.Post("/api/v1/jobs", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    auto body = json_body(req, res, {"name", "command", "script", "options", "webhook"});
    if (!body) return;
    auto webhook = take_webhook(site, *body, res);
    if (!webhook) return;
    start(site, c, res, "", *body, *webhook);
  }));

  server.Post("/api/v1/workflows", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    auto body = json_body(req, res, {"workflow", "name", "uploads", "webhook"});
    if (!body) return;
    auto webhook = take_webhook(site, *body, res);
    if (!webhook) return;
    if (!body->value("workflow", nlohmann::json()).is_string())
      return send_error(res, 400, "workflow: the text of a workflow file (YAML with a steps: list)", "workflow");
    start(site, c, res, "", *body, *webhook);
  }));

  server.Get("/api/v1/runs", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    RunFilter filter;
    auto limit = int_param(req, res, "limit", 50, 1, 500);
    auto after = limit ? int_param(req, res, "after", 0, 0, INT64_MAX) : std::nullopt;
    if (!after) return;
    filter.limit = static_cast<int>(*limit);
    filter.before = *after;
    filter.template_name = req.get_param_value("template");
    filter.owner = c.user.admin ? req.get_param_value("owner") : c.user.name;
    std::optional<JobState> wanted;
    if (req.has_param("state")) {
      wanted = parse_job_state(req.get_param_value("state"));
      if (!wanted) return send_error(res, 400, "state: '" + req.get_param_value("state") + "' is not a job state", "state");
    }
    auto runs = site.db->runs(filter);
    auto shown = site.runs.runs(site, runs);
    if (!shown) return send_failure(res, shown.failure());
    nlohmann::json out = nlohmann::json::array();
    for (auto& j : *shown) {
      if (wanted && j["state"] != to_string(*wanted)) continue;
      out.push_back(std::move(j));
    }
    const bool more = static_cast<int>(runs.size()) == filter.limit;
    send_json(res, 200, {{"runs", out}, {"next", more ? runs.back().id : 0}, {"last_event", site.feed->last_id()}});
  }));

  server.Get(R"(/api/v1/runs/(\d+))", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    auto run = caller_run(site, c, req, res);
    if (!run) return;
    auto shown = site.runs.runs(site, {*run});
    if (!shown) return send_failure(res, shown.failure());
    auto events = site.runs.timeline(site, *run);
    if (!events) return send_failure(res, events.failure());
    send_json(res, 200, {{"run", shown->front()}, {"events", *events}});
  }));

  server.Post(R"(/api/v1/runs/(\d+)/cancel)", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    auto run = caller_run(site, c, req, res);
    if (!run) return;
    CancelRequest cancel;
    cancel.ids = run->jobs;
    auto daemon = site.daemon();
    if (auto done = daemon.cancel(cancel); !done) return send_failure(res, done.failure());
    (void)site.db->audit(c.user.name, "run.cancel", "run " + std::to_string(run->id));
    send_run(site, res, 200, *run);
  }));

  server.Post(R"(/api/v1/runs/(\d+)/rerun)", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    auto run = caller_run(site, c, req, res);
    if (!run) return;
    // Started as its owner would have (an admin running another's run again runs it as theirs).
    start(site, c, res, run->template_name, run->values);
  }));

  server.Post(R"(/api/v1/runs/(\d+)/resume)", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    auto run = caller_run(site, c, req, res);
    if (!run) return;
    User owner = c.user;
    if (run->owner != c.user.name)  // an admin's asking: the run goes on as its owner's
      for (const auto& u : site.db->users())
        if (u.name == run->owner) owner = u;
    auto resumed = resume_workflow_run(site, owner, *run, c.user.name);
    if (auto* no = std::get_if<StartRefusal>(&resumed)) return send_error(res, no->status, no->message, no->field);
    send_run(site, res, 200, std::get<RunRow>(resumed));
  }));

  server.Get(R"(/api/v1/runs/(\d+)/logs)", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    auto run = caller_run(site, c, req, res);
    if (!run) return;
    const std::string stream = req.has_param("stream") ? req.get_param_value("stream") : "stdout";
    if (stream != "stdout" && stream != "stderr")
      return send_error(res, 400, "stream: stdout or stderr, not '" + stream + "'", "stream");
    auto offset = int_param(req, res, "offset", 0, 0, INT64_MAX);
    auto limit = offset ? int_param(req, res, "limit", 1 << 20, 1, kMaxLogChunk) : std::nullopt;
    auto job = limit ? int_param(req, res, "job", run->jobs.empty() ? 0 : run->jobs.front(), 0, INT64_MAX) : std::nullopt;
    if (!job) return;
    if (std::find(run->jobs.begin(), run->jobs.end(), *job) == run->jobs.end())
      return send_error(res, 404, "job " + std::to_string(*job) + " is not of run " + std::to_string(run->id), "job");
    LogsRequest logs;
    logs.id = *job;
    logs.stderr_stream = stream == "stderr";
    logs.offset = *offset;
    logs.limit = *limit;
    auto got = site.outputs.read(site, logs);
    if (!got) return send_failure(res, got.failure());
    send_json(res, 200, {{"data", bytes_to_json(got->data)}, {"offset", got->offset}, {"size", got->size},
                         {"ended", got->ended}, {"job", *job}});
  }));
}

}  // namespace yard::web
