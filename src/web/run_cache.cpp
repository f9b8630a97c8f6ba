#include "web/run_cache.h"

#include <algorithm>
#include <map>
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
  // The runs' states as the events tell them, read once: what is shown, and what decides
  // whether a run's final records are needed.
  std::map<std::int64_t, EventFeed::LiveState> live;
  std::set<std::int64_t> ended_live;
  for (const auto& r : rows)
    if (auto state = site.feed->live_state(r.id)) {
      if (is_terminal(state->state)) ended_live.insert(r.id);
      live.emplace(r.id, std::move(*state));
    }
  // `stale`: the runs to compute again (in the background); `must_wait`: one of them has
  // nothing to show yet (new here, or ended since it was computed: its end state comes with
  // its jobs' final records, which the feed's end of the run has already asked for).
  bool must_wait = false;
  auto take = [&](std::vector<nlohmann::json>& out, std::vector<RunRow>& stale) {
    std::lock_guard lock(mu_);
    const double now = monotonic_now();
    out.clear();
    stale.clear();
    must_wait = false;
    for (const auto& r : rows) {
      auto it = entries_.find(r.id);
      const bool ended_now = ended_live.count(r.id) != 0;
      if (it == entries_.end() || it->second.run.is_null() || (ended_now && !it->second.ended)) {
        must_wait = true;
        stale.push_back(r);
        out.push_back(nullptr);
        continue;
      }
      if (!fresh(it->second, it->second.run_at, now)) stale.push_back(r);
      out.push_back(it->second.run);
    }
  };
  std::vector<nlohmann::json> out;
  std::vector<RunRow> stale;
  take(out, stale);
  if (must_wait) {
    std::lock_guard refreshing(refresh_);
    take(out, stale);  // another request may have refreshed them meanwhile
    if (!stale.empty())
      if (auto done = refresh(site, stale); !done) return done.failure();
    take(out, stale);
  }
  if (!stale.empty()) refresh_later(site, stale);
  for (auto& run : out) {
    if (run.is_null()) continue;
    if (auto it = live.find(run["id"].get<std::int64_t>()); it != live.end()) {
      run["state"] = to_string(it->second.state);
      run["jobs_by_state"] = it->second.jobs_by_state;
    }
  }
  return out;
}

Status RunCache::refresh(Site& site, const std::vector<RunRow>& rows) {
  auto daemon = site.daemon();
  auto jobs = jobs_of(daemon, rows);
  if (!jobs) return jobs.failure();
  std::lock_guard lock(mu_);
  const double now = monotonic_now();
  for (const auto& r : rows) {
    Entry& e = entries_[r.id];
    e.run = run_json(r, *jobs);
    e.run_at = now;
    e.ended = !r.jobs.empty() && ended(e.run["state"]);
  }
  return {};
}

void RunCache::refresh_later(Site& site, const std::vector<RunRow>& rows) {
  std::lock_guard lock(later_mu_);
  if (stopping_) return;
  for (const auto& r : rows)
    if (std::none_of(later_.begin(), later_.end(), [&](const RunRow& queued) { return queued.id == r.id; }))
      later_.push_back(r);
  if (!refresher_.joinable()) refresher_ = std::thread([this, &site] { refresh_in_background(site); });
  later_cv_.notify_one();
}

void RunCache::run_ended(Site& site, std::int64_t run) {
  std::lock_guard lock(later_mu_);
  if (stopping_) return;
  ended_later_.push_back(run);
  if (!refresher_.joinable()) refresher_ = std::thread([this, &site] { refresh_in_background(site); });
  later_cv_.notify_one();
}

void RunCache::refresh_in_background(Site& site) {
  while (true) {
    std::vector<RunRow> rows;
    std::vector<std::int64_t> ended;
    {
      std::unique_lock lock(later_mu_);
      later_cv_.wait(lock, [this] { return stopping_ || !later_.empty() || !ended_later_.empty(); });
      if (stopping_) return;
      rows.swap(later_);
      ended.swap(ended_later_);
    }
    std::lock_guard refreshing(refresh_);
    {
      // Asked for again while the last refresh ran: done by it, unless a second has passed
      // (a run's end is computed at once).
      std::lock_guard lock(mu_);
      const double now = monotonic_now();
      std::erase_if(rows, [&](const RunRow& r) {
        auto it = entries_.find(r.id);
        return it != entries_.end() && fresh(it->second, it->second.run_at, now);
      });
    }
    for (auto id : ended)
      if (auto row = site.db->run(id); row && std::none_of(rows.begin(), rows.end(), [&](const RunRow& r) { return r.id == id; }))
        rows.push_back(std::move(*row));
    // A daemon out of reach: the runs stay as they were; the next request asks again.
    if (!rows.empty()) (void)refresh(site, rows);
  }
}

RunCache::~RunCache() {
  {
    std::lock_guard lock(later_mu_);
    stopping_ = true;
  }
  later_cv_.notify_one();
  if (refresher_.joinable()) refresher_.join();
}

Result<nlohmann::json> RunCache::timeline(Site& site, const RunRow& row) {
  const auto live = site.feed->live_state(row.id);
  const bool ended_now = live && is_terminal(live->state);
  // The last events of the run's first jobs that the feed has seen: while they are those
  // seen before the timeline was made, it holds every change (a 10,000-job array's page
  // asks the daemon again only when one of its first jobs changes). Kept a second when
  // the feed has not seen them all (a run from before the service started).
  std::vector<std::optional<std::int64_t>> last_events;
  for (std::size_t i = 0; i < row.jobs.size() && i < kTimelineJobs; ++i)
    last_events.push_back(site.feed->job_last_event(row.jobs[i]));
  const bool all_seen = std::all_of(last_events.begin(), last_events.end(), [](const auto& s) { return s.has_value(); });
  {
    // One request makes a run's timeline; those asking meanwhile get the one before it (or
    // none yet: the page asks again at the run's next change) rather than wait with it
    // for a daemon that may be busy starting the array's 10,000 jobs.
    std::lock_guard lock(mu_);
    auto it = entries_.find(row.id);
    if (it != entries_.end() && !it->second.events.is_null()) {
      const Entry& e = it->second;
      if (e.events_ended || (all_seen && e.events_last == last_events) ||
          (!all_seen && !ended_now && monotonic_now() - e.events_at < kMaxAgeS))
        return e.events;
    }
    if (!timelines_made_.insert(row.id).second)
      return it != entries_.end() && !it->second.events.is_null() ? it->second.events : nlohmann::json::array();
  }
  struct Made {
    RunCache& cache;
    std::int64_t run;
    ~Made() {
      std::lock_guard lock(cache.mu_);
      cache.timelines_made_.erase(run);
    }
  } made{*this, row.id};
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
  e.events_last = std::move(last_events);  // seen before the daemon was asked: never newer than it
  return events;
}

void RunCache::forget(std::int64_t run) {
  std::lock_guard lock(mu_);
  entries_.erase(run);
}

}  // namespace yard::web
