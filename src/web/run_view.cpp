#include "web/run_view.h"

#include <algorithm>

#include "web/event_feed.h"

namespace yard::web {
namespace {

nlohmann::json optional_time(const std::optional<double>& t) { return t ? nlohmann::json(*t) : nlohmann::json(); }

// State, times and resources of some jobs (a run's, or one step's).
nlohmann::json summary(const std::vector<const JobRecord*>& jobs) {
  std::vector<JobState> states;
  std::optional<double> start, end;
  bool all_ended = !jobs.empty();
  std::int64_t cpus = 0, mem = 0, walltime = 0, max_rss = 0;
  double cpu_seconds = 0;
  for (const JobRecord* j : jobs) {
    states.push_back(j->state);
    if (j->start_time) start = std::min(start.value_or(*j->start_time), *j->start_time);
    if (j->end_time) end = std::max(end.value_or(*j->end_time), *j->end_time);
    all_ended = all_ended && is_terminal(j->state);
    cpus += j->cpus;
    mem += j->mem_bytes;
    walltime = std::max(walltime, j->walltime_s);
    cpu_seconds += j->cpu_seconds.value_or(0);
    max_rss = std::max(max_rss, j->max_rss_bytes.value_or(0));
  }
  nlohmann::json out = {{"state", to_string(run_state(states))},
                        {"start_time", optional_time(start)},
                        {"end_time", all_ended ? optional_time(end) : nlohmann::json()},
                        {"requested", {{"cpus", cpus}, {"mem_bytes", mem}, {"walltime_s", walltime}}},
                        {"used", {{"cpu_seconds", cpu_seconds}, {"max_rss_bytes", max_rss}}}};
  return out;
}

}  // namespace

nlohmann::json run_json(const RunRow& run, const std::map<std::int64_t, JobRecord>& jobs) {
  std::vector<const JobRecord*> mine;
  for (auto id : run.jobs)
    if (auto it = jobs.find(id); it != jobs.end()) mine.push_back(&it->second);
  nlohmann::json out = summary(mine);
  out["id"] = run.id;
  out["name"] = run.name;
  out["template"] = run.template_name;
  out["kind"] = run.kind;
  out["owner"] = run.owner;
  out["values"] = run.values;
  out["submit_time"] = run.created;
  // The first of a large array's ids (job_count says how many): a reply is not 60 KB of
  // ids for each 10,000-job array it mentions.
  out["jobs"] = std::vector<std::int64_t>(run.jobs.begin(), run.jobs.begin() + static_cast<std::ptrdiff_t>(
                                                                std::min(run.jobs.size(), kShownJobIds)));
  out["job_count"] = run.jobs.size();
  out["backend"] = mine.empty() ? "" : mine.front()->backend;
  out["exit_code"] = mine.size() == 1 && mine.front()->exit_code ? nlohmann::json(*mine.front()->exit_code)
                                                                 : nlohmann::json();
  if (run.jobs.empty()) out["state"] = "PENDING";
  if (run.kind == "workflow") {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& step : run.steps) {
      std::vector<const JobRecord*> of_step;
      for (const auto& id : step.value("jobs", nlohmann::json::array()))
        if (auto it = jobs.find(id.get<std::int64_t>()); it != jobs.end()) of_step.push_back(&it->second);
      nlohmann::json s = summary(of_step);
      s["name"] = step.value("name", "");
      s["needs"] = step.value("needs", nlohmann::json::array());
      s["jobs"] = step.value("jobs", nlohmann::json::array());
      steps.push_back(std::move(s));
    }
    out["steps"] = std::move(steps);
  }
  return out;
}

Result<std::map<std::int64_t, JobRecord>> jobs_of(DaemonClient& daemon, const std::vector<RunRow>& runs) {
  std::map<std::int64_t, JobRecord> out;
  JobQuery query;
  for (const auto& r : runs) query.ids.insert(query.ids.end(), r.jobs.begin(), r.jobs.end());
  if (query.ids.empty()) return out;
  auto jobs = daemon.all_jobs(query);
  if (!jobs) return jobs.failure();
  for (auto& j : *jobs) out.emplace(j.id, std::move(j));
  return out;
}

}  // namespace yard::web
