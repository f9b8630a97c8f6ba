// Runs as the API shows them, kept for a second: a page's list or a run's page costs the
// daemon one query a second for everyone asking, not one per request (200 clients listing
// a 10,000-job array would otherwise fetch its 10,000 records each time). The state is
// always the live one (the event feed's count of the run's jobs by state); times and usage
// may be a second old (computed again in the background: a request waits only for a run
// it has nothing to show of); a run whose jobs all ended is computed once more and then
// kept.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <optional>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job_record.h"
#include "core/result.h"
#include "web/web_db.h"

namespace yard::web {

struct Site;

class RunCache {
 public:
  RunCache() = default;
  ~RunCache();
  RunCache(const RunCache&) = delete;
  RunCache& operator=(const RunCache&) = delete;
  static constexpr double kMaxAgeS = 1.0;
  // Each run's JSON (run_view.h), in the order given.
  Result<std::vector<nlohmann::json>> runs(Site& site, const std::vector<RunRow>& rows);
  // The feed saw the run end: its jobs' final records are asked for at once, in the
  // background, so that the requests that come for the ended run find them (or wait less).
  void run_ended(Site& site, std::int64_t run);
  // The run's timeline: the state changes of its first jobs, in time order.
  Result<nlohmann::json> timeline(Site& site, const RunRow& row);
  // Computed again at its next asking (a run resumed: ended, it would be kept as it was).
  void forget(std::int64_t run);

 private:
  struct Entry {
    nlohmann::json run, events;
    double run_at = 0, events_at = 0;
    bool ended = false;         // every job had ended when `run` was made: it changes no more
    bool events_ended = false;  // the same for `events`
    std::vector<std::optional<std::int64_t>> events_last;  // the first jobs' last events seen before `events`
  };
  bool fresh(const Entry& e, double at, double now) const { return e.ended || now - at < kMaxAgeS; }
  // Computes the runs again from the daemon's records of their jobs (under refresh_).
  Status refresh(Site& site, const std::vector<RunRow>& rows);
  // The same in the background: a request that has something to show for every run shows
  // it, and none waits for (or pays) a refresh of a 10,000-job array.
  void refresh_later(Site& site, const std::vector<RunRow>& rows);
  void refresh_in_background(Site& site);
  std::mutex later_mu_;
  std::condition_variable later_cv_;
  std::vector<RunRow> later_;  // under later_mu_
  std::vector<std::int64_t> ended_later_;  // under later_mu_
  bool stopping_ = false;      // under later_mu_
  std::thread refresher_;
  std::mutex mu_;       // the entries
  std::mutex refresh_;  // one refresh at a time: those waiting find it done
  std::map<std::int64_t, Entry> entries_;
  std::set<std::int64_t> timelines_made_;  // runs whose timeline a request is making (under mu_)
};

}  // namespace yard::web
