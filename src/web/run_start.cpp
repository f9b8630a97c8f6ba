#include "web/run_start.h"

#include <sys/stat.h>

#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <functional>

#include "core/clock.h"
#include "jobtext/submit_options.h"
#include "web/http_reply.h"

namespace yard::web {
namespace {

namespace fs = std::filesystem;

// The form field whose value went into the option a flag error names, if any.
std::string field_of_flag_error(const Template& t, const std::string& message) {
  for (const auto& step : t.steps)
    for (const auto& [flag, value] : step.options)
      if (message.find("--" + flag) != std::string::npos)
        for (const auto& f : t.fields)
          if (value.find("{" + f.name + "}") != std::string::npos) return f.name;
  return "";
}

bool regular_file(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Each step's job through `yard submit`'s flag parser; or the first refusal. A script step
// is parsed with a stand-in command (the parser wants something to run), then given it.
std::variant<std::vector<FlaggedJob>, StartRefusal> make_jobs(const std::vector<FilledStep>& filled,
                                                              const Template* t) {
  std::vector<FlaggedJob> jobs;
  for (const auto& step : filled) {
    auto job = parse_job_flags(step.flags, step.script.empty() ? step.command : std::vector<std::string>{"true"});
    if (!job) return StartRefusal{400, step.name + ": " + job.error(), t ? field_of_flag_error(*t, job.error()) : "options"};
    if (!step.script.empty()) {
      job->spec.argv.clear();
      job->spec.script = step.script;
    }
    jobs.push_back(std::move(*job));
  }
  return jobs;
}

// Records the run, makes its directory (with `uploads` copied in), submits its jobs keyed
// by the run, and tells the feed. `default_name(i)`: step i's job name unless its flags
// give one.
std::variant<RunRow, StartRefusal> launch(Site& site, const User& user, RunRow run, std::vector<FlaggedJob> jobs,
                                          const std::vector<FilledStep>& filled, const std::vector<std::string>& uploads,
                                          const std::function<std::string(std::size_t)>& default_name) {
  run.owner = user.name;
  run.created = wall_now();
  auto id = site.db->add_run(run);
  if (!id) return StartRefusal{503, id.error(), ""};
  run.id = *id;
  run.dir = site.run_dir(run.id);
  std::error_code ec;
  fs::create_directories(run.dir, ec);
  if (ec) return StartRefusal{503, "cannot make the run's directory " + run.dir + ": " + ec.message(), ""};
  for (const auto& name : uploads) {
    fs::copy_file(site.upload_dir(user.name) + "/" + name, run.dir + "/" + name, ec);
    if (ec) return StartRefusal{503, "cannot copy " + name + " into the run: " + ec.message(), ""};
  }

  const std::string key = "web-run-" + std::to_string(run.id) + "-" + site.db->site_key().substr(0, 16);
  auto daemon = site.daemon();
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    JobSpec& spec = jobs[i].spec;
    spec.workdir = run.dir;
    spec.env = job_environment(user, run.id, filled[i].env);
    if (spec.account.empty()) spec.account = user.account;
    const bool named = std::any_of(filled[i].flags.begin(), filled[i].flags.end(),
                                   [](const std::string& f) { return f.rfind("--job-name=", 0) == 0; });
    if (!named) spec.name = default_name(i);
  }
  // The feed waits until the run is known to it: its jobs' first events are the run's.
  auto hold = site.feed->hold_for_new_run();
  if (run.kind == "job") {
    SubmitRequest request;
    request.spec = jobs[0].spec;
    request.job_class = jobs[0].job_class;
    request.key = key;
    auto reply = daemon.submit(request);
    if (!reply) return refused(site, run, reply.failure());
    run.jobs = reply->ids;
  } else {
    SubmitManyRequest request;
    request.key = key;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      SubmitManyRequest::Job job;
      job.spec = jobs[i].spec;
      job.job_class = jobs[i].job_class;
      job.own_env = true;
      for (int n : filled[i].needs) job.needs.push_back(n);
      request.jobs.push_back(std::move(job));
    }
    auto reply = daemon.submit_many(request);
    if (!reply) return refused(site, run, reply.failure());
    for (std::size_t i = 0; i < reply->ids.size(); ++i) {
      run.jobs.insert(run.jobs.end(), reply->ids[i].begin(), reply->ids[i].end());
      nlohmann::json needs = nlohmann::json::array();
      for (int n : filled[i].needs) needs.push_back(filled[static_cast<std::size_t>(n)].name);
      run.steps.push_back({{"name", filled[i].name}, {"needs", needs}, {"jobs", reply->ids[i]}});
    }
  }
  if (auto st = site.db->set_run_jobs(run.id, run.jobs, run.steps); !st) return StartRefusal{503, st.error(), ""};
  site.feed->add_run(run.id, run.owner, run.jobs);
  hold.unlock();
  (void)site.db->audit(user.name, "run.start",
                       "run " + std::to_string(run.id) + " (" + (run.template_name.empty() ? "a command" : "template " + run.template_name) +
                           "): " + run.values.dump());
  return run;
}

}  // namespace

void drop_run(Site& site, const RunRow& run) {
  (void)site.db->drop_unsubmitted_run(run.id);
  std::error_code ec;
  fs::remove_all(run.dir, ec);
}

StartRefusal refused(Site& site, const RunRow& run, const Error& e) {
  if (e.kind != ErrorKind::OutcomeUnknown && e.kind != ErrorKind::Unavailable) drop_run(site, run);
  return StartRefusal{status_of(e.kind), e.message, ""};
}

std::map<std::string, std::string> job_environment(const User& user, std::int64_t run,
                                                   const std::map<std::string, std::string>& fields) {
  std::map<std::string, std::string> env = {{"PATH", "/usr/local/bin:/usr/bin:/bin"},
                                            {"LANG", "C.UTF-8"},
                                            {"YARD_WEB_USER", user.name},
                                            {"YARD_WEB_RUN", std::to_string(run)}};
  if (const char* home = std::getenv("HOME")) env["HOME"] = home;
  for (const auto& [k, v] : fields) env[k] = v;
  return env;
}

std::variant<RunRow, StartRefusal> start_run(Site& site, const User& user, const std::string& template_name,
                                             const nlohmann::json& values, const std::string& webhook) {
  auto templates = site.templates();
  if (!templates) return StartRefusal{500, "the site's templates cannot be read: " + templates.error(), ""};
  const Template* t = nullptr;
  for (const auto& candidate : *templates)
    if (candidate.name == template_name) t = &candidate;
  if (!t) return StartRefusal{404, "no template '" + template_name + "'", "template"};
  auto checked = check_values(*t, values);
  if (auto* bad = std::get_if<FieldError>(&checked)) return StartRefusal{400, bad->message, bad->field};
  const nlohmann::json& good = std::get<nlohmann::json>(checked);
  std::vector<std::string> uploads;
  for (const auto& f : t->fields)
    if (f.type == "file") {
      const std::string name = good[f.name].get<std::string>();
      if (!regular_file(site.upload_dir(user.name) + "/" + name))
        return StartRefusal{400, f.label + ": no uploaded file '" + name + "'", f.name};
      uploads.push_back(name);
    }
  // Every job made and checked before the run is recorded.
  const auto filled = fill(*t, good);
  auto jobs = make_jobs(filled, t);
  if (auto* no = std::get_if<StartRefusal>(&jobs)) return *no;
  RunRow run;
  run.template_name = t->name;
  run.kind = t->kind;
  run.name = t->title;
  run.values = good;
  run.webhook = webhook;
  return launch(site, user, run, std::move(std::get<std::vector<FlaggedJob>>(jobs)), filled, uploads,
                [&](std::size_t i) { return t->kind == "job" ? t->name : t->name + "." + filled[i].name; });
}

std::variant<RunRow, StartRefusal> start_command_run(Site& site, const User& user, const nlohmann::json& job,
                                                     const std::string& webhook) {
  FilledStep step;
  step.name = "job";
  if (job.contains("command")) {
    if (!job["command"].is_array() || job["command"].empty())
      return StartRefusal{400, "command: a list of words, the program first", "command"};
    for (const auto& w : job["command"]) {
      if (!w.is_string()) return StartRefusal{400, "command: words are text, not " + w.dump(), "command"};
      step.command.push_back(w.get<std::string>());
    }
  }
  if (job.contains("script")) {
    if (!job["script"].is_string()) return StartRefusal{400, "script: text (the script's body)", "script"};
    step.script = job["script"].get<std::string>();
  }
  if (step.command.empty() == step.script.empty())
    return StartRefusal{400, "give a command or a script (one of them)", step.command.empty() ? "command" : "script"};
  const nlohmann::json options = job.value("options", nlohmann::json::object());
  if (!options.is_object()) return StartRefusal{400, "options: an object of yard submit's long flags", "options"};
  for (const auto& [flag, value] : options.items()) {
    if (value.is_object() || value.is_array() || value.is_null())
      return StartRefusal{400, "options: " + flag + ": a word, a number or true, not " + value.dump(), "options"};
    if (value.is_boolean()) {
      if (value.get<bool>()) step.flags.push_back("--" + flag);
    } else {
      step.flags.push_back("--" + flag + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
    }
  }
  const std::vector<FilledStep> filled{step};
  auto jobs = make_jobs(filled, nullptr);
  if (auto* no = std::get_if<StartRefusal>(&jobs)) return *no;
  if (job.contains("name") && !job["name"].is_string()) return StartRefusal{400, "name: text", "name"};
  RunRow run;
  run.kind = "job";
  run.name = job.value("name", step.command.empty() ? std::string("script") : step.command.front());
  run.values = job;
  run.webhook = webhook;
  return launch(site, user, run, std::move(std::get<std::vector<FlaggedJob>>(jobs)), filled, {},
                [&](std::size_t) { return run.name; });
}

}  // namespace yard::web
