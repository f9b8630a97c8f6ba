#include "web/run_cache.h"

#include <algorithm>
#include <set>

#include "core/clock.h"
#include "web/run_view.h"
#include "web/site.h"

namespace yard::web {
namespace {

constexpr std::size_t kTimelineJobs = 20;

bool ended(const std::string& state) {
  auto s = parse_job_state(state);
  return s && is_terminal(*s);
}

}  // namespace

Result<std::vector<nlohmann::json>> RunCache::runs(Site& site, const std::vector<RunRow>& rows) {
  std::set<std::int64_t> ended_live;
  for (const auto& r : rows)
    if (auto live = site.feed->live_state(r.id); live && is_terminal(live->first)) ended_live.insert(r.id);
  auto take = [&](std::vector<nlohmann::json>& out, std::vector<RunRow>& stale) {
    std::lock_guard lock(mu_);
    const double now = monotonic_now();
    out.clear();
    stale.clear();
    for (const auto& r : rows) {
      auto it = entries_.find(r.id);
      // A run that the events say has ended is shown with its jobs' final records.
      const bool ended_now = ended_live.count(r.id) != 0;
      if (it != entries_.end() && !it->second.run.is_null() && fresh(it->second, it->second.run_at, now) &&
          (!ended_now || it->second.ended)) {
        out.push_back(it->second.run);
      } else {
        stale.push_back(r);
        out.push_back(nullptr);
      }
    }
  };
  std::vector<nlohmann::json> out;
  std::vector<RunRow> stale;
  take(out, stale);
  if (!stale.empty()) {
    std::lock_guard refreshing(refresh_);
    take(out, stale);  // another request may have refreshed them meanwhile
    if (!stale.empty()) {
      auto daemon = site.daemon();
      auto jobs = jobs_of(daemon, stale);
      if (!jobs) return jobs.failure();
      std::lock_guard lock(mu_);
      const double now = monotonic_now();
      for (const auto& r : stale) {
        Entry& e = entries_[r.id];
        e.run = run_json(r, *jobs);
        e.run_at = now;
        e.ended = !r.jobs.empty() && ended(e.run["state"]);
      }
    }
    take(out, stale);
  }
  // The state as the events tell it now.
  for (auto& run : out) {
    if (run.is_null()) continue;
    if (auto live = site.feed->live_state(run["id"].get<std::int64_t>())) {
      run["state"] = to_string(live->first);
      run["jobs_by_state"] = live->second;
    }
  }
  return out;
}

Result<nlohmann::json> RunCache::timeline(Site& site, const RunRow& row) {
  const auto live = site.feed->live_state(row.id);
  const bool ended_now = live && is_terminal(live->first);
  {
    std::lock_guard lock(mu_);
    auto it = entries_.find(row.id);
    if (it != entries_.end() && !it->second.events.is_null() &&
        (it->second.events_ended || (!ended_now && monotonic_now() - it->second.events_at < kMaxAgeS)))
      return it->second.events;
  }
  std::lock_guard refreshing(refresh_);
  auto daemon = site.daemon();
  nlohmann::json events = nlohmann::json::array();
  bool all_ended = !row.jobs.empty();
  for (std::size_t i = 0; i < row.jobs.size() && i < kTimelineJobs; ++i) {
    auto job = daemon.job(row.jobs[i]);
    if (!job) return job.failure();
    all_ended = all_ended && is_terminal(job->job.state);
    for (const auto& e : job->events)
      events.push_back({{"time", e.time}, {"state", to_string(e.state)}, {"detail", e.detail}, {"job", row.jobs[i]},
                        {"name", job->job.name}});
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const nlohmann::json& a, const nlohmann::json& b) { return a["time"] < b["time"]; });
  std::lock_guard lock(mu_);
  Entry& e = entries_[row.id];
  e.events = events;
  e.events_at = monotonic_now();
  e.events_ended = all_ended;
  return events;
}

void RunCache::forget(std::int64_t run) {
  std::lock_guard lock(mu_);
  entries_.erase(run);
}

}  // namespace yard::web
