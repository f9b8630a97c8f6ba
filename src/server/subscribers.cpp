#include "server/subscribers.h"

#include <algorithm>

#include "protocol/messages.h"

namespace yard {
namespace {

// How many events a behind watcher is fed per read of the store: about what its
// connection's buffer takes at a time (Connections::kStreamBuffer).
constexpr std::size_t kCatchUpPage = 500;

}  // namespace

bool event_matches(const JobQuery& f, const LoggedEvent& e) {
  if (!f.ids.empty() && !std::binary_search(f.ids.begin(), f.ids.end(), e.job_id) &&
      !(e.array_job_id && std::binary_search(f.ids.begin(), f.ids.end(), *e.array_job_id)))
    return false;
  if (!f.states.empty() && std::find(f.states.begin(), f.states.end(), e.event.state) == f.states.end()) return false;
  if (!f.name.empty() && f.name != e.name) return false;
  if (!f.backend.empty() && f.backend != e.backend) return false;
  if (f.array_job_id && e.array_job_id != f.array_job_id) return false;
  return true;
}

bool matches_every_event(const JobQuery& f) {
  return f.ids.empty() && f.states.empty() && f.name.empty() && f.backend.empty() && !f.array_job_id;
}

Status Subscribers::start() {
  auto last = store_.last_event_id();
  if (!last) return last.failure();
  head_ = *last;
  recent_.clear(head_);
  return {};
}

void Subscribers::wait(int fd, const WaitRequest& r) {
  JobQuery q;
  q.ids = r.ids;
  auto jobs = store_.find(q);
  if (!jobs) {
    connections_.send(fd, encode_error(jobs.failure()), true);
    return;
  }
  // The ids found, as jobs or arrays: a wait on an array's 10,000 elements looks each up
  // once, not through all of them.
  std::set<std::int64_t> found;
  for (const auto& j : *jobs) {
    found.insert(j.id);
    if (j.array_job_id) found.insert(*j.array_job_id);
  }
  std::string unknown;
  for (auto id : r.ids)
    if (!found.count(id)) unknown += (unknown.empty() ? "" : ", ") + std::to_string(id);
  if (!unknown.empty()) {
    connections_.send(fd, encode_error(Error{"no job " + unknown, ErrorKind::NotFound}), true);
    return;
  }
  Waiter w{r.ids, {}};
  for (const auto& j : *jobs)
    if (!is_terminal(j.state)) w.remaining.insert(j.id);
  if (w.remaining.empty()) {
    connections_.send(fd, encode_reply(WaitReply{std::move(*jobs)}), true);
    return;
  }
  for (auto id : w.remaining) waiting_on_.emplace(id, fd);
  waiters_[fd] = std::move(w);
}

void Subscribers::finish_wait(int fd) {
  auto it = waiters_.find(fd);
  if (it == waiters_.end()) return;
  JobQuery q;
  q.ids = it->second.ids;
  auto jobs = store_.find(q);
  connections_.send(fd, jobs ? encode_reply(WaitReply{std::move(*jobs)}) : encode_error(jobs.failure()), true);
  waiters_.erase(it);
}

void Subscribers::watch(int fd, const WatchRequest& r) {
  if (r.since > head_) {
    connections_.send(fd,
                      encode_error(Error{"cursor " + std::to_string(r.since) + " is ahead of the event log (its last event is " +
                                         std::to_string(head_) + "): it is not one this daemon gave"}),
                      true);
    return;
  }
  Watcher w{r.since, r.follow, r.filter};
  std::sort(w.filter.ids.begin(), w.filter.ids.end());  // event_matches looks ids up
  // Only the new watcher is caught up: the others were at the last commit.
  auto& added = watchers_[fd] = std::move(w);
  if (!catch_up(fd, added)) forget(fd);
}

bool Subscribers::feed(int fd, Watcher& w, const std::vector<LoggedEvent>& events) {
  bool all = true;
  for (const LoggedEvent& e : events) {
    if (e.id <= w.cursor) continue;
    if (!connections_.owns(fd) || !connections_.room(fd)) {
      all = false;
      break;
    }
    if (event_matches(w.filter, e)) connections_.queue(fd, encode_reply(WatchLine{e, 0}));
    w.cursor = e.id;
  }
  settle(fd, w);
  return all;
}

bool Subscribers::feed_recent(int fd, Watcher& w) {
  if (!connections_.owns(fd)) return false;
  const std::size_t room = connections_.room_left(fd);
  if (matches_every_event(w.filter)) {  // a run of lines, in one copy
    const RecentEvents::Run run = recent_.after(w.cursor, room);
    connections_.queue_lines(fd, run.text);
    w.cursor = run.last_id;
    settle(fd, w);
    return run.complete;
  }
  gathered_.clear();
  const bool all = recent_.each_after(w.cursor, [&](const LoggedEvent& e, std::string_view line) {
    if (gathered_.size() >= room) return false;
    if (event_matches(w.filter, e)) gathered_ += line;
    w.cursor = e.id;
    return true;
  });
  connections_.queue_lines(fd, gathered_);
  settle(fd, w);
  return all;
}

void Subscribers::after_commit() {
  // Nobody waits or watches (a burst of submissions, most often): the log's head is all
  // that is needed, without reading its new events.
  if (waiters_.empty() && watchers_.empty()) {
    if (auto last = store_.last_event_id(); last && *last != head_) head_ = *last, recent_.clear(head_);
    return;
  }
  auto fresh = store_.events_after(head_, static_cast<std::size_t>(-1) >> 1);
  if (!fresh || fresh->empty()) return;
  head_ = fresh->back().id;
  // Waiters: a job that reached an end state is one fewer to wait for.
  std::vector<int> done;
  for (const auto& e : *fresh) {
    if (!is_terminal(e.event.state)) continue;
    auto [lo, hi] = waiting_on_.equal_range(e.job_id);
    for (auto it = lo; it != hi; ++it) {
      auto w = waiters_.find(it->second);
      if (w == waiters_.end()) continue;
      w->second.remaining.erase(e.job_id);
      if (w->second.remaining.empty()) done.push_back(it->second);
    }
    waiting_on_.erase(lo, hi);
  }
  for (int fd : done) finish_wait(fd);
  // The new events join the window of recent ones, each encoded once for every watcher
  // (only while someone watches: otherwise nobody would read them).
  if (watchers_.empty()) {
    recent_.clear(head_);
    return;
  }
  for (auto& e : *fresh) {
    const std::string line = encode_reply(WatchLine{e, 0});
    recent_.add(std::move(e), line);
  }
}

void Subscribers::catch_up() {
  std::vector<int> ended;
  for (auto& [fd, w] : watchers_)
    if (!catch_up(fd, w)) ended.push_back(fd);
  for (int fd : ended) forget(fd);
}

bool Subscribers::catch_up(int fd, Watcher& w) {
  while (w.cursor < head_ && connections_.owns(fd) && connections_.room(fd)) {
    // Within the window of recent events: from memory, already encoded.
    if (w.cursor >= recent_.start()) {
      const std::int64_t was = w.cursor;
      feed_recent(fd, w);
      if (w.cursor == was) break;  // out of room (or, never, a hole in the window)
      continue;
    }
    auto page = store_.events_after(w.cursor, kCatchUpPage);
    if (!page) {
      connections_.send(fd, encode_error(page.failure()), true);
      return false;
    }
    if (page->empty()) {  // nothing past the cursor (events of jobs since removed)
      w.cursor = head_;
      break;
    }
    feed(fd, w, *page);
  }
  if (!w.follow && w.cursor >= head_ && connections_.owns(fd)) {
    connections_.send(fd, encode_reply(WatchLine{std::nullopt, head_}), true);
    return false;
  }
  return true;
}

void Subscribers::settle(int fd, Watcher& w) {
  // Only the watchers holding a batch are looked at by flush_due() and next_flush_s():
  // a thousand that are up to date, or stalled, cost them nothing. A flush offers all it
  // holds to the socket: nothing is held after it.
  const std::size_t held = connections_.held(fd);
  const double now = held > 0 ? clock_.monotonic() : 0;
  if (held > 0 && (held >= kBatchBytes || now >= w.sent_at + kBatchDelayS)) {
    w.sent_at = now;
    connections_.flush(fd);
    holding_.erase(fd);
  } else if (held > 0) {
    holding_.insert(fd);
  } else {
    holding_.erase(fd);
  }
}

void Subscribers::flush_due() {
  const std::vector<int> fds(holding_.begin(), holding_.end());
  for (int fd : fds)
    if (auto it = watchers_.find(fd); it != watchers_.end()) settle(fd, it->second);
    else holding_.erase(fd);
}

double Subscribers::next_flush_s() const {
  double next = 3600;
  const double now = clock_.monotonic();
  for (int fd : holding_)
    if (auto it = watchers_.find(fd); it != watchers_.end())
      next = std::min(next, std::max(0.0, it->second.sent_at + kBatchDelayS - now));
  return next;
}

bool Subscribers::wants_room(int fd) const {
  auto it = watchers_.find(fd);
  return it != watchers_.end() && it->second.cursor < head_;
}

void Subscribers::stop(const std::string& why) {
  recent_.clear(head_);
  const std::string line = encode_error(Error{why, ErrorKind::Unavailable});
  const double deadline = monotonic_now() + Connections::kLastWordsS;
  for (auto& [fd, w] : watchers_) connections_.send_now_and_close(fd, line, deadline);
  for (auto& [fd, w] : waiters_) connections_.send_now_and_close(fd, line, deadline);
  watchers_.clear();
  holding_.clear();
  waiters_.clear();
  waiting_on_.clear();
}

void Subscribers::forget(int fd) {
  watchers_.erase(fd);
  holding_.erase(fd);
  if (waiters_.erase(fd))
    std::erase_if(waiting_on_, [fd](const auto& entry) { return entry.second == fd; });
}

}  // namespace yard
