#include "web/event_feed.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/byte_json.h"

namespace yard::web {

namespace {
constexpr std::size_t kKept = 100000;  // messages kept for pages that reconnect
}

JobState run_state(const std::vector<JobState>& jobs) {
  bool running = false, pending = false, ended = false;
  std::optional<JobState> bad;
  for (JobState s : jobs) {
    if (s == JobState::Running) running = true;
    else if (!is_terminal(s)) pending = true;
    else ended = true;
    if (is_terminal(s) && s != JobState::Completed && !bad) bad = s;
  }
  // A workflow between two steps is under way: running, to the person who started it.
  if (running) return JobState::Running;
  if (bad) return *bad;  // what waits on a failed step never runs
  if (pending) return ended ? JobState::Running : JobState::Pending;
  return jobs.empty() ? JobState::Pending : JobState::Completed;
}

JobState run_state(const std::map<JobState, int>& counts) {
  std::vector<JobState> present;
  for (const auto& [state, n] : counts)
    if (n > 0) present.push_back(state);
  return run_state(present);
}

void EventFeed::RunStates::set(std::int64_t job, JobState state) {
  auto [it, added] = jobs.emplace(job, state);
  if (!added) {
    if (--counts[it->second] == 0) counts.erase(it->second);
    it->second = state;
  }
  ++counts[state];
}

EventFeed::EventFeed(Paths daemon_paths, RunLookup run_of)
    : paths_(std::move(daemon_paths)), run_of_(std::move(run_of)) {}

EventFeed::~EventFeed() { stop(); }

Status EventFeed::start() {
  DaemonClient client(paths_, true);
  auto ping = client.ping();
  if (!ping) return ping.failure();
  start_id_ = last_id_ = ping->last_event;
  fanout_ = std::make_unique<FeedFanout>(ping->last_event);
  thread_ = std::thread([this] { follow(); });
  waker_ = std::thread([this] { wake_streams(); });
  return {};
}

void EventFeed::stop() {
  if (stop_.exchange(true)) return;
  {
    std::lock_guard lock(mu_);  // a stream between its check of stop_ and its wait sees it
    changed_.notify_all();
  }
  {
    std::lock_guard lock(wake_mu_);
    news_ = true;
  }
  wake_.notify_one();
  if (fanout_) fanout_->stop();
  if (waker_.joinable()) waker_.join();
  // The watch returns at its next event or lost connection; the thread is not waited
  // for beyond the process's end.
  if (thread_.joinable()) thread_.detach();
}

std::int64_t EventFeed::last_id() {
  std::lock_guard lock(mu_);
  return last_id_;
}

void EventFeed::add_run(std::int64_t run, const std::string& owner, const std::vector<std::int64_t>& jobs) {
  std::lock_guard lock(mu_);
  add_run_locked(run, owner, jobs, {});
}

void EventFeed::replace_run_jobs(std::int64_t run, const std::string& owner, const std::vector<std::int64_t>& jobs) {
  std::lock_guard lock(mu_);
  RunStates kept;
  if (auto old = run_jobs_.find(run); old != run_jobs_.end())
    for (auto id : jobs)
      if (auto known = old->second.jobs.find(id); known != old->second.jobs.end()) kept.set(id, known->second);
  run_jobs_[run] = std::move(kept);
  add_run_locked(run, owner, jobs, {});
}

void EventFeed::add_run_locked(std::int64_t run, const std::string& owner, const std::vector<std::int64_t>& jobs,
                               const std::vector<JobRecord>& now) {
  auto& states = run_jobs_[run];
  for (auto id : jobs) {
    job_run_[id] = {run, owner};
    if (!states.jobs.count(id)) states.set(id, JobState::Pending);
  }
  for (const auto& job : now) states.set(job.id, job.state);
}

std::optional<EventFeed::LiveState> EventFeed::live_state(std::int64_t run) {
  std::lock_guard lock(mu_);
  auto it = run_jobs_.find(run);
  if (it == run_jobs_.end()) return std::nullopt;
  LiveState live;
  live.jobs_by_state = nlohmann::json::object();
  for (const auto& [s, n] : it->second.counts) live.jobs_by_state[std::string(to_string(s))] = n;
  live.state = run_state(it->second.counts);
  return live;
}

std::optional<std::int64_t> EventFeed::job_last_event(std::int64_t job) {
  std::lock_guard lock(mu_);
  auto it = job_last_event_.find(job);
  if (it == job_last_event_.end()) return std::nullopt;
  return it->second;
}

std::optional<JobState> EventFeed::job_state(std::int64_t job) {
  std::lock_guard lock(mu_);
  auto run = job_run_.find(job);
  if (run == job_run_.end()) return std::nullopt;
  auto states = run_jobs_.find(run->second.first);
  if (states == run_jobs_.end()) return std::nullopt;
  auto it = states->second.jobs.find(job);
  if (it == states->second.jobs.end()) return std::nullopt;
  return it->second;
}

std::optional<FeedMessage> EventFeed::message_for(const LoggedEvent& e, bool live) {
  auto found = job_run_.find(e.job_id);
  if (found == job_run_.end()) {
    // A run from before this service started: its jobs' states as the daemon has them.
    if (no_run_.count(e.job_id)) return std::nullopt;
    auto of = run_of_(e.job_id);
    if (!of) {
      no_run_.insert(e.job_id);
      return std::nullopt;
    }
    JobQuery query;
    query.ids = of->jobs;
    auto now = DaemonClient(paths_, true).all_jobs(query);
    add_run_locked(of->run, of->owner, of->jobs, now ? *now : std::vector<JobRecord>{});
    found = job_run_.find(e.job_id);
    if (found == job_run_.end()) return std::nullopt;
  }
  const auto [run, owner] = found->second;
  auto& states = run_jobs_[run];
  const bool ended_before = is_terminal(run_state(states.counts));
  if (live) {
    states.set(e.job_id, e.event.state);
    job_last_event_[e.job_id] = e.id;
  }
  if (live && !ended_before && is_terminal(run_state(states.counts)) && on_run_end_) on_run_end_(run);
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& [s, n] : states.counts) counts[std::string(to_string(s))] = n;
  const JobState state = live ? run_state(states.counts) : e.event.state;
  nlohmann::json run_json = {{"id", run}, {"state", to_string(state)}, {"jobs_by_state", counts}};
  if (is_terminal(state) && live) run_json["end_time"] = e.event.time;
  const nlohmann::json change = {e.id, run, e.job_id, to_string(e.event.state), e.event.time, bytes_to_json(e.event.detail)};
  const auto replace = nlohmann::json::error_handler_t::replace;
  std::string text = change.dump(-1, ' ', false, replace);
  std::size_t tail = 0;  // after the third comma: the ids hold none
  for (int k = 0; k < 3; ++k) tail = text.find(',', tail) + 1;
  return FeedMessage{e.id, run, e.job_id, owner, std::move(text), tail, run_json.dump(-1, ' ', false, replace)};
}

void EventFeed::follow() {
  while (!stop_) {
    DaemonClient client(paths_, true);
    WatchRequest request;
    request.since = last_id();
    auto st = client.watch(request, [this](const LoggedEvent& e) {
      std::lock_guard hold(registering_);
      std::lock_guard lock(mu_);
      last_id_ = e.id;
      if (auto m = message_for(e, true)) {
        kept_.push_back(std::make_shared<const FeedMessage>(std::move(*m)));
        if (kept_.size() > kKept) {
          start_id_ = kept_.front()->id;
          kept_.pop_front();
        }
      }
      {
        std::lock_guard news(wake_mu_);
        news_ = true;
      }
      wake_.notify_one();
      return !stop_;
    });
    // The daemon stopped (it says so) or cannot be reached: try again shortly.
    if (!stop_) {
      std::unique_lock lock(mu_);
      changed_.wait_for(lock, std::chrono::seconds(1), [this] { return stop_.load(); });
    }
  }
}

void EventFeed::wake_streams() {
  std::int64_t published = fanout_->published();
  std::vector<FeedPtr> taken;
  while (!stop_) {
    {
      std::unique_lock lock(wake_mu_);
      wake_.wait(lock, [this] { return news_; });
    }
    // The first change of a burst waits this long for the rest of it.
    std::this_thread::sleep_for(std::chrono::duration<double>(tick_seconds(fanout_->pages())));
    {
      std::lock_guard lock(wake_mu_);
      news_ = false;
    }
    std::int64_t upto = 0;
    bool gap = false;
    {
      // Pointers taken under the lock; rendered by the fanout without it.
      std::lock_guard lock(mu_);
      upto = last_id_;
      gap = start_id_ > published;  // more came in a tick than is kept
      auto first = std::partition_point(kept_.begin(), kept_.end(), [&](const FeedPtr& m) { return m->id <= published; });
      taken.assign(first, kept_.end());
    }
    if (upto <= published) continue;
    if (gap) fanout_->publish_gap(upto);
    else fanout_->publish(upto, taken);
    taken.clear();
    published = upto;
  }
}

std::shared_ptr<FeedFanout::Subscription> EventFeed::subscribe(const std::string& viewer, MaySee may_see,
                                                               Render render) {
  return fanout_->subscribe(viewer, std::move(may_see), std::move(render));
}

std::shared_ptr<const std::string> EventFeed::rendered_after(std::int64_t since, const FeedFanout::Subscription& page,
                                                             double wait_s, bool& older, std::int64_t& reached) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(wait_s));
  reached = since;
  older = false;
  while (!stop_) {
    std::shared_ptr<const std::string> text;
    switch (fanout_->take(since, page.viewer(), deadline, text, reached)) {
      case FeedFanout::Taken::Text: return text;
      case FeedFanout::Taken::Nothing: return nullptr;
      case FeedFanout::Taken::NotHere: break;
    }
    // Not in the ticks' batches (a page just opened, or far behind): rendered here, from
    // what is kept, up to the last tick; the page's next take begins at that tick.
    const std::int64_t upto = fanout_->published();
    std::unique_lock lock(mu_);
    older = since < start_id_;
    if (older) return nullptr;
    auto key = std::make_tuple(since, upto, page.viewer());
    if (auto hit = rendered_.find(key); hit != rendered_.end()) {
      text = hit->second;
    } else {
      // Messages are in id order: those in (since, upto], taken as pointers under the lock
      // and rendered without it.
      auto first = std::partition_point(kept_.begin(), kept_.end(), [&](const FeedPtr& m) { return m->id <= since; });
      auto last = std::partition_point(first, kept_.end(), [&](const FeedPtr& m) { return m->id <= upto; });
      std::vector<FeedPtr> taken(first, last);
      lock.unlock();
      std::vector<FeedPtr> visible;
      for (auto& m : taken)
        if (page.may_see(*m)) visible.push_back(std::move(m));
      text = std::make_shared<const std::string>(visible.empty() ? std::string() : page.render(visible));
      lock.lock();
      if (rendered_.emplace(key, text).second) {
        rendered_order_.push_back(std::move(key));
        if (rendered_order_.size() > kRendered) {
          rendered_.erase(rendered_order_.front());
          rendered_order_.pop_front();
        }
      }
    }
    reached = since = upto;
    if (!text->empty()) return text;
    if (std::chrono::steady_clock::now() >= deadline) return nullptr;
  }
  return nullptr;
}

std::vector<FeedMessage> EventFeed::replay(std::int64_t since, const std::function<bool(const FeedMessage&)>& may_see,
                                           std::int64_t& upto) {
  {
    std::lock_guard lock(mu_);
    upto = start_id_;
  }
  std::vector<FeedMessage> out;
  DaemonClient client(paths_, true);
  WatchRequest request;
  request.since = since;
  request.follow = false;
  (void)client.watch(request, [&](const LoggedEvent& e) {
    if (e.id > upto) return false;
    std::lock_guard lock(mu_);
    if (auto m = message_for(e, false); m && may_see(*m)) out.push_back(std::move(*m));
    return true;
  });
  return out;
}

}  // namespace yard::web
