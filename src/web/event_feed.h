// The daemon's event stream, followed once for the whole site and fanned out to every open
// page: 500 pages cost the daemon (and the schedulers behind it) one watch. Each event of a
// job that belongs to a run becomes a message carrying the run's new state, numbered by the
// daemon's event id, so a page that reconnects with Last-Event-ID gets what it missed
// (from memory, or from the daemon's log when it is older than what is kept here).
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/daemon_client.h"
#include "core/job_record.h"
#include "web/feed_fanout.h"
#include "web/feed_message.h"

namespace yard::web {

class EventFeed {
 public:
  // `run_of`: the run a job belongs to, for jobs of runs made before the service started.
  struct RunOf {
    std::int64_t run = 0;
    std::string owner;
    std::vector<std::int64_t> jobs;
  };
  using RunLookup = std::function<std::optional<RunOf>(std::int64_t job)>;
  EventFeed(Paths daemon_paths, RunLookup run_of);
  ~EventFeed();
  EventFeed(const EventFeed&) = delete;
  EventFeed& operator=(const EventFeed&) = delete;

  // Starts following from the daemon's last event (its id is where a new page begins).
  Status start();
  void stop();
  std::int64_t last_id();

  // Held while a run is submitted and until add_run: the feed takes no event meanwhile, so
  // the first events of the run's jobs are not taken for those of no run.
  std::unique_lock<std::mutex> hold_for_new_run() { return std::unique_lock<std::mutex>(registering_); }
  // The run's state and its jobs' count by state, as the events told them (nothing for a
  // run the feed has not seen).
  struct LiveState {
    JobState state = JobState::Pending;
    nlohmann::json jobs_by_state;
  };
  std::optional<LiveState> live_state(std::int64_t run);

  // A job's state as the events told it (nothing for a job of no run the feed has seen).
  std::optional<JobState> job_state(std::int64_t job);
  // The id of the job's last event the feed has seen (nothing before its first).
  std::optional<std::int64_t> job_last_event(std::int64_t job);

  // Called (under the feed's lock: quickly) when a run's state becomes an end state.
  void on_run_end(std::function<void(std::int64_t run)> told) { on_run_end_ = std::move(told); }

  // Tells the feed a run's jobs (a new run): their events become the run's messages.
  void add_run(std::int64_t run, const std::string& owner, const std::vector<std::int64_t>& jobs);
  // A resumed workflow's jobs now: those of its steps run again replace the ended ones
  // (whose states no longer count for the run); a job kept keeps its state. Called under
  // hold_for_new_run(), as add_run.
  void replace_run_jobs(std::int64_t run, const std::string& owner, const std::vector<std::int64_t>& jobs);
  void add_run_locked(std::int64_t run, const std::string& owner, const std::vector<std::int64_t>& jobs,
                      const std::vector<JobRecord>& now);

  // A page open for a viewer (one key per `may_see`: an admin, or one user), held while it
  // is: each tick's changes are rendered once for every page of the viewer (FeedFanout).
  std::shared_ptr<FeedFanout::Subscription> subscribe(const std::string& viewer, MaySee may_see, Render render);

  // The text of the messages after `since` that the subscription's viewer may see, waiting
  // up to `wait_s` for the first (null when none came); `older` is set when `since` is
  // before what is kept here (replay from the daemon); `reached`: the last id looked at
  // (the caller's next `since`). A page at the last tick takes the text rendered for its
  // viewer; one elsewhere (just opened, or behind) has it rendered here, once for every
  // page asking the same.
  std::shared_ptr<const std::string> rendered_after(std::int64_t since, const FeedFanout::Subscription& page,
                                                    double wait_s, bool& older, std::int64_t& reached);
  // The daemon's log from `since` up to where the messages kept here start (`upto`), as
  // messages.
  std::vector<FeedMessage> replay(std::int64_t since, const std::function<bool(const FeedMessage&)>& may_see,
                                  std::int64_t& upto);
  bool stopped() const { return stop_; }

 private:
  void follow();
  // Publishes the new messages to the streams once a tick (tick_seconds): a burst of
  // changes (an array of 10,000 jobs) reaches each stream in a few writes a second, and
  // 1,000 streams are not woken for each change.
  void wake_streams();
  // The first change of a burst waits this long for the rest of it: 50 ms with a few pages
  // open, up to 250 ms with a thousand. Each tick wakes every page's thread and writes to
  // each; at 20 ticks a second, a thousand pages took the CPU that API requests waited
  // for (p99 175 ms against 73 ms at 5 ticks, changes reaching the pages in 0.5 s either way).
  static double tick_seconds(int pages) { return std::min(0.25, 0.05 + 0.0002 * pages); }
  // The message for one event, or nothing for a job of no run; updates the run's state
  // (`live`: the event is new; an old one is told as it was).
  std::optional<FeedMessage> message_for(const LoggedEvent& e, bool live);

  Paths paths_;
  RunLookup run_of_;
  std::function<void(std::int64_t)> on_run_end_;
  std::mutex registering_;  // before mu_
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<FeedPtr> kept_;  // shared with the streams that send them: never copied
  std::int64_t start_id_ = 0, last_id_ = 0;
  // Each tick's messages to the pages (wake_streams publishes them); made by start().
  std::unique_ptr<FeedFanout> fanout_;
  // Renderings by (since, up to, viewer), the latest kRendered of them (a thousand pages
  // that reconnect together from the same id).
  static constexpr std::size_t kRendered = 512;
  std::map<std::tuple<std::int64_t, std::int64_t, std::string>, std::shared_ptr<const std::string>> rendered_;
  std::deque<std::tuple<std::int64_t, std::int64_t, std::string>> rendered_order_;
  // Each run's jobs' states as the events told them, and how many are in each (a run's
  // state is its jobs': counted as they change, not over a 10,000-job array each time).
  struct RunStates {
    std::map<std::int64_t, JobState> jobs;
    std::map<JobState, int> counts;
    void set(std::int64_t job, JobState state);
  };
  std::map<std::int64_t, RunStates> run_jobs_;
  std::map<std::int64_t, std::pair<std::int64_t, std::string>> job_run_;  // job -> (run, owner)
  std::set<std::int64_t> no_run_;  // jobs of no run (submitted by other clients)
  std::unordered_map<std::int64_t, std::int64_t> job_last_event_;  // job -> id of its last event seen
  std::atomic<bool> stop_{false};
  std::thread thread_, waker_;
  std::mutex wake_mu_;
  std::condition_variable wake_;
  bool news_ = false;  // under wake_mu_
};

// A run's state from how many of its jobs are in each state.
JobState run_state(const std::map<JobState, int>& counts);
// A run's state from its jobs': RUNNING while one runs; else the first end that was not
// COMPLETED, if any (what waits on a failed step never runs); else RUNNING while some
// completed and others wait (a workflow between steps), PENDING while all wait, and
// COMPLETED when all completed.
JobState run_state(const std::vector<JobState>& jobs);

}  // namespace yard::web
