#include "web/event_feed.h"

#include <algorithm>
#include <chrono>

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
  thread_ = std::thread([this] { follow(); });
  return {};
}

void EventFeed::stop() {
  stop_ = true;
  changed_.notify_all();
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

void EventFeed::add_run_locked(std::int64_t run, const std::string& owner, const std::vector<std::int64_t>& jobs,
                               const std::vector<JobRecord>& now) {
  auto& states = run_jobs_[run];
  for (auto id : jobs) {
    job_run_[id] = {run, owner};
    if (!states.jobs.count(id)) states.set(id, JobState::Pending);
  }
  for (const auto& job : now) states.set(job.id, job.state);
}

std::optional<FeedMessage> EventFeed::message_for(const LoggedEvent& e, bool live) {
  auto found = job_run_.find(e.job_id);
  if (found == job_run_.end()) {
    // A run from before this service started: its jobs' states as the daemon has them.
    auto of = run_of_(e.job_id);
    if (!of) return std::nullopt;
    JobQuery query;
    query.ids = of->jobs;
    auto now = DaemonClient(paths_, true).all_jobs(query);
    add_run_locked(of->run, of->owner, of->jobs, now ? *now : std::vector<JobRecord>{});
    found = job_run_.find(e.job_id);
    if (found == job_run_.end()) return std::nullopt;
  }
  const auto [run, owner] = found->second;
  auto& states = run_jobs_[run];
  if (live) states.set(e.job_id, e.event.state);
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& [s, n] : states.counts) counts[std::string(to_string(s))] = n;
  const JobState state = live ? run_state(states.counts) : e.event.state;
  nlohmann::json data = {
      {"run", {{"id", run}, {"state", to_string(state)}, {"jobs_by_state", counts}}},
      {"job", {{"id", e.job_id}, {"name", e.name}, {"state", to_string(e.event.state)}, {"time", e.event.time},
               {"detail", e.event.detail}}}};
  if (is_terminal(state) && live) data["run"]["end_time"] = e.event.time;
  return FeedMessage{e.id, run, owner, data.dump()};
}

void EventFeed::follow() {
  while (!stop_) {
    DaemonClient client(paths_, true);
    WatchRequest request;
    request.since = last_id();
    auto st = client.watch(request, [this](const LoggedEvent& e) {
      std::lock_guard lock(mu_);
      last_id_ = e.id;
      if (auto m = message_for(e, true)) {
        kept_.push_back(std::move(*m));
        if (kept_.size() > kKept) {
          start_id_ = kept_.front().id;
          kept_.pop_front();
        }
      }
      changed_.notify_all();
      return !stop_;
    });
    // The daemon stopped (it says so) or cannot be reached: try again shortly.
    if (!stop_) {
      std::unique_lock lock(mu_);
      changed_.wait_for(lock, std::chrono::seconds(1), [this] { return stop_.load(); });
    }
  }
}

std::vector<FeedMessage> EventFeed::after(std::int64_t since, const std::function<bool(const FeedMessage&)>& may_see,
                                          double wait_s, bool& older, std::int64_t& reached) {
  std::unique_lock lock(mu_);
  older = since < start_id_;
  reached = since;
  if (older) return {};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
  while (true) {
    std::vector<FeedMessage> out;
    // Messages are in id order: skip to the first after `since`.
    auto it = std::partition_point(kept_.begin(), kept_.end(), [&](const FeedMessage& m) { return m.id <= since; });
    for (; it != kept_.end(); ++it)
      if (may_see(*it)) out.push_back(*it);
    // Nothing for this page yet: what came is not for it; wait past it.
    since = std::max(since, last_id_);
    reached = std::max(reached, since);
    if (!out.empty() || stop_) return out;
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout) return {};
  }
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
