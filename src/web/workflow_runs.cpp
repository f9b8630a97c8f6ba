#include "web/workflow_runs.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "core/clock.h"
#include "flow/flow_file.h"
#include "flow/flow_submission.h"
#include "flow/step_key.h"
#include "web/http_reply.h"
#include "web/safe_files.h"

namespace yard::web {
namespace {

namespace fs = std::filesystem;

constexpr const char* kFileName = "workflow.yaml";  // the run's copy of its file

// The body's parts, checked: the file's text, the run's name, the uploads copied in.
struct WorkflowBody {
  std::string text, name;
  std::vector<std::string> uploads;
};

std::variant<WorkflowBody, StartRefusal> read_body(Site& site, const User& user, const nlohmann::json& body) {
  WorkflowBody b;
  if (!body.contains("workflow") || !body["workflow"].is_string() || body["workflow"].get<std::string>().empty())
    return StartRefusal{400, "workflow: the text of a workflow file (YAML with a steps: list)", "workflow"};
  b.text = body["workflow"].get<std::string>();
  if (body.contains("name")) {
    if (!body["name"].is_string()) return StartRefusal{400, "name: text", "name"};
    b.name = body["name"].get<std::string>();
  }
  if (body.contains("uploads")) {
    if (!body["uploads"].is_array()) return StartRefusal{400, "uploads: a list of your uploaded files' names", "uploads"};
    for (const auto& u : body["uploads"]) {
      if (!u.is_string() || !good_upload_name(u.get<std::string>()))
        return StartRefusal{400, "uploads: not a file name: " + u.dump(), "uploads"};
      struct stat st {};
      const std::string path = site.upload_dir(user.name) + "/" + u.get<std::string>();
      if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return StartRefusal{400, "uploads: no uploaded file '" + u.get<std::string>() + "'", "uploads"};
      b.uploads.push_back(u.get<std::string>());
    }
  }
  return b;
}

// The flow of `text` with its relative paths from `dir`, its jobs charged to the user's
// account and run in the environment a template's jobs get.
Result<Flow> workflow_flow(const std::string& text, const std::string& source, const std::string& dir, const User& user,
                           std::int64_t run, const std::string& name) {
  auto flow = parse_flow(text, source, dir, job_environment(user, run, {}), kMaxWebWorkflowSteps);
  if (!flow) return flow;
  if (!name.empty()) flow->name = name;
  for (auto& step : flow->steps)
    if (step.spec.account.empty()) step.spec.account = user.account;
  return flow;
}

// The flow sent to the daemon under `key`; the run's jobs and graph taken from its reply.
Result<SubmitManyReply> submit_flow(Site& site, Flow& flow, RunRow& run, const std::string& key) {
  if (auto ready = prepare_flow_run(flow, run.dir); !ready) return ready.failure();
  auto daemon = site.daemon();
  std::vector<FileDigest> known;
  if (const auto inputs = external_inputs(flow); !inputs.empty()) {
    auto asked = daemon.digests(DigestsRequest{inputs});
    if (!asked) return asked.failure();
    known = std::move(asked->digests);
  }
  auto request = flow_submission(flow, run.dir, {}, known);
  if (!request) return request.failure();
  request->key = key;
  auto reply = daemon.submit_many(std::move(*request));
  if (!reply) return reply;
  run.jobs.clear();
  run.steps = nlohmann::json::array();
  for (std::size_t i = 0; i < reply->ids.size() && i < flow.steps.size(); ++i) {
    run.jobs.insert(run.jobs.end(), reply->ids[i].begin(), reply->ids[i].end());
    nlohmann::json needs = nlohmann::json::array();
    for (auto n : flow.steps[i].needs) needs.push_back(flow.steps[static_cast<std::size_t>(n)].name);
    run.steps.push_back({{"name", flow.steps[i].name}, {"needs", needs}, {"jobs", reply->ids[i]}});
  }
  return reply;
}

std::string site_key_part(Site& site) { return site.db->site_key().substr(0, 16); }

}  // namespace

bool is_workflow_file_run(const RunRow& run) {
  return run.kind == "workflow" && run.template_name.empty() && run.values.contains("workflow");
}

std::variant<RunRow, StartRefusal> start_workflow_run(Site& site, const User& user, const nlohmann::json& body,
                                                      const std::string& webhook) {
  auto read = read_body(site, user, body);
  if (auto* no = std::get_if<StartRefusal>(&read)) return *no;
  auto& b = std::get<WorkflowBody>(read);
  // Checked before anything is recorded: from the user's uploads, where the run's copies
  // of them come from (the run is read again from its own directory below).
  auto checked = workflow_flow(b.text, "workflow", site.upload_dir(user.name), user, 0, b.name);
  if (!checked) return StartRefusal{400, checked.error(), "workflow"};

  RunRow run;
  run.owner = user.name;
  run.kind = "workflow";
  run.name = checked->name;
  run.values = {{"workflow", b.text}};
  if (!b.name.empty()) run.values["name"] = b.name;
  if (!b.uploads.empty()) run.values["uploads"] = b.uploads;
  run.webhook = webhook;
  run.created = wall_now();
  auto id = site.db->add_run(run);
  if (!id) return StartRefusal{503, id.error(), ""};
  run.id = *id;
  run.dir = site.run_dir(run.id);
  // Nothing of the run was submitted: it goes, with its directory.
  auto drop = [&](int status, const std::string& why, const std::string& field) {
    drop_run(site, run);
    return StartRefusal{status, why, field};
  };
  std::error_code ec;
  fs::create_directories(run.dir, ec);
  if (ec) return drop(503, "cannot make the run's directory " + run.dir + ": " + ec.message(), "");
  for (const auto& name : b.uploads) {
    fs::copy_file(site.upload_dir(user.name) + "/" + name, run.dir + "/" + name, ec);
    if (ec) return drop(503, "cannot copy " + name + " into the run: " + ec.message(), "");
  }
  const std::string file = run.dir + "/" + kFileName;
  if (!(std::ofstream(file) << b.text)) return drop(503, "cannot write " + file, "");
  auto flow = workflow_flow(b.text, file, run.dir, user, run.id, b.name);
  if (!flow) return drop(400, flow.error(), "workflow");

  auto hold = site.feed->hold_for_new_run();
  auto reply = submit_flow(site, *flow, run, "web-run-" + std::to_string(run.id) + "-" + site_key_part(site));
  if (!reply) return refused(site, run, reply.failure());  // a run whose jobs may exist stays
  if (auto st = site.db->set_run_jobs(run.id, run.jobs, run.steps); !st) return StartRefusal{503, st.error(), ""};
  site.feed->add_run(run.id, run.owner, run.jobs);
  hold.unlock();
  (void)site.db->audit(user.name, "run.start",
                       "run " + std::to_string(run.id) + " (workflow " + run.name + ", " + std::to_string(flow->steps.size()) +
                           " steps)");
  return run;
}

std::variant<RunRow, StartRefusal> resume_workflow_run(Site& site, const User& owner, RunRow run, const std::string& by) {
  if (!is_workflow_file_run(run))
    return StartRefusal{409, "run " + std::to_string(run.id) + " did not run a workflow file: /rerun starts it again", ""};
  run.dir = site.run_dir(run.id);
  const std::string text = run.values["workflow"].get<std::string>();
  const std::string name = run.values.value("name", std::string());
  auto flow = workflow_flow(text, run.dir + "/" + kFileName, run.dir, owner, run.id, name);
  if (!flow) return StartRefusal{409, "run " + std::to_string(run.id) + " cannot be read again: " + flow.error(), ""};
  // Keyed by this asking: a resume asked again after a lost reply submits nothing twice
  // anyway (the steps it submitted are pending or running: followed, not sent again).
  const std::string key = "web-run-" + std::to_string(run.id) + "-resume-" +
                          std::to_string(static_cast<std::int64_t>(wall_now() * 1000)) + "-" + site_key_part(site);
  auto hold = site.feed->hold_for_new_run();
  auto reply = submit_flow(site, *flow, run, key);
  if (!reply) return StartRefusal{status_of(reply.kind()), reply.error(), ""};
  if (auto st = site.db->set_run_jobs(run.id, run.jobs, run.steps); !st) return StartRefusal{503, st.error(), ""};
  site.feed->replace_run_jobs(run.id, run.owner, run.jobs);
  site.runs.forget(run.id);
  hold.unlock();
  std::size_t again = 0;
  for (auto o : reply->origins) again += o == StepOrigin::Submitted;
  (void)site.db->audit(by, "run.resume",
                       "run " + std::to_string(run.id) + ": " + std::to_string(again) + " of " +
                           std::to_string(flow->steps.size()) + " steps submitted again");
  return run;
}

}  // namespace yard::web
