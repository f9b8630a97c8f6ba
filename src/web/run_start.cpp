#include "web/run_start.h"

#include <sys/stat.h>

#include <cstdlib>
#include <algorithm>
#include <filesystem>

#include "core/clock.h"
#include "jobtext/submit_options.h"
#include "web/http_reply.h"

namespace yard::web {
namespace {

namespace fs = std::filesystem;

// A job's environment: the form's values and who started it, never the service's own.
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

// The daemon refused the jobs: the run goes (nothing of it runs). When the outcome is
// unknown (a daemon that did not answer), it stays: its jobs may exist.
StartRefusal refused(Site& site, const RunRow& run, const Error& e) {
  if (e.kind != ErrorKind::OutcomeUnknown && e.kind != ErrorKind::Unavailable) {
    (void)site.db->drop_unsubmitted_run(run.id);
    std::error_code ec;
    fs::remove_all(run.dir, ec);
  }
  return StartRefusal{status_of(e.kind), e.message, ""};
}

}  // namespace

std::variant<RunRow, StartRefusal> start_run(Site& site, const User& user, const std::string& template_name,
                                             const nlohmann::json& values) {
  auto templates = site.templates();
  if (!templates) return StartRefusal{500, "the site's templates cannot be read: " + templates.error(), ""};
  const Template* t = nullptr;
  for (const auto& candidate : *templates)
    if (candidate.name == template_name) t = &candidate;
  if (!t) return StartRefusal{404, "no template '" + template_name + "'", "template"};
  auto checked = check_values(*t, values);
  if (auto* bad = std::get_if<FieldError>(&checked)) return StartRefusal{400, bad->message, bad->field};
  const nlohmann::json& good = std::get<nlohmann::json>(checked);
  for (const auto& f : t->fields)
    if (f.type == "file" && !regular_file(site.upload_dir(user.name) + "/" + good[f.name].get<std::string>()))
      return StartRefusal{400, f.label + ": no uploaded file '" + good[f.name].get<std::string>() + "'", f.name};

  // Every job made and checked before the run is recorded.
  const auto filled = fill(*t, good);
  std::vector<FlaggedJob> jobs;
  for (const auto& step : filled) {
    // A script step is parsed with a stand-in command (the flags' parser wants something to
    // run), then given its script.
    auto job = parse_job_flags(step.flags, step.script.empty() ? step.command : std::vector<std::string>{"true"});
    if (!job) return StartRefusal{400, step.name + ": " + job.error(), field_of_flag_error(*t, job.error())};
    if (!step.script.empty()) {
      job->spec.argv.clear();
      job->spec.script = step.script;
    }
    jobs.push_back(std::move(*job));
  }

  RunRow run;
  run.owner = user.name;
  run.template_name = t->name;
  run.kind = t->kind;
  run.name = t->title;
  run.values = good;
  run.created = wall_now();
  auto id = site.db->add_run(run);
  if (!id) return StartRefusal{503, id.error(), ""};
  run.id = *id;
  run.dir = site.run_dir(run.id);
  std::error_code ec;
  fs::create_directories(run.dir, ec);
  if (ec) return StartRefusal{503, "cannot make the run's directory " + run.dir + ": " + ec.message(), ""};
  for (const auto& f : t->fields)
    if (f.type == "file") {
      const std::string name = good[f.name].get<std::string>();
      fs::copy_file(site.upload_dir(user.name) + "/" + name, run.dir + "/" + name, ec);
      if (ec) return StartRefusal{503, "cannot copy " + name + " into the run: " + ec.message(), f.name};
    }

  const std::string key = "web-run-" + std::to_string(run.id) + "-" + site.db->site_key().substr(0, 16);
  auto daemon = site.daemon();
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    JobSpec& spec = jobs[i].spec;
    spec.workdir = run.dir;
    spec.env = job_environment(user, run.id, filled[i].env);
    if (spec.account.empty()) spec.account = user.account;
    // Named after the template (and step) unless its options name it.
    const bool named = std::any_of(filled[i].flags.begin(), filled[i].flags.end(),
                                   [](const std::string& f) { return f.rfind("--job-name=", 0) == 0; });
    if (!named) spec.name = t->kind == "job" ? t->name : t->name + "." + filled[i].name;
  }
  // The feed waits until the run is known to it: its jobs' first events are the run's.
  auto hold = site.feed->hold_for_new_run();
  if (t->kind == "job") {
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
                       "run " + std::to_string(run.id) + " of template " + t->name + ": " + good.dump());
  return run;
}

}  // namespace yard::web
