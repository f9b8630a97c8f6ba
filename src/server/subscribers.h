// The daemon's open streams: clients waiting for jobs to end (`wait`) and clients
// following the event log (`watch`). After each commit the daemon reads the log's new
// events once (Store::events_after), encodes each once, and hands them to all: many
// watchers cost one read and one encoding per change, not one per watcher. A watcher that is behind (it asked from an old
// cursor, or did not read fast enough) is fed from the store, a page at a time, whenever
// its connection has room: a client that stops reading holds a small buffer and nothing
// else, and never slows the others; one that reconnects with its last id misses nothing
// and sees nothing twice.
#pragma once

#include <cstdint>
#include <string>
#include <map>
#include <set>
#include <vector>

#include "core/clock.h"
#include "core/job_record.h"
#include "protocol/queries.h"
#include "server/connections.h"
#include "server/recent_events.h"
#include "store/store.h"

namespace yard {

// Whether `e` is an event the filter asks for (ids, sorted: jobs, or arrays by their
// first id).
bool event_matches(const JobQuery& filter, const LoggedEvent& e);
// Whether the filter lets every event through (event_matches is then always true).
bool matches_every_event(const JobQuery& filter);

class Subscribers {
 public:
  // A watcher's events are sent in batches: when 16 KiB wait, or 20 ms after its last
  // send (a send per event and per watcher cost the daemon more than the events did).
  static constexpr std::size_t kBatchBytes = 16 << 10;
  static constexpr double kBatchDelayS = 0.02;

  Subscribers(Store& store, Connections& connections, const Clock& clock = system_clock())
      : store_(store), connections_(connections), clock_(clock) {}

  // Where the log stands (call once at start, and after each commit through after_commit).
  Status start();
  // Replies at once when every job has ended (or names the unknown ones); else keeps
  // `fd` until they have.
  void wait(int fd, const WaitRequest& request);
  // Streams the log after `request.since` to `fd`.
  void watch(int fd, const WatchRequest& request);
  // After a commit: the new events, read once, to every waiter and live watcher.
  void after_commit();
  // Feeds watchers that are behind, as far as their connections have room.
  void catch_up();
  // Whether the watcher on `fd` is behind the log (it gets more as its connection has room).
  bool wants_room(int fd) const;
  // Sends the batches whose time has come; and how long until the next one does (the
  // daemon's poll wakes up then).
  void flush_due();
  double next_flush_s() const;
  // The connection went away.
  void forget(int fd);
  // The daemon stops: every stream is told why, and closed (a client would otherwise take
  // the closed connection for a restart, and start a daemon again).
  void stop(const std::string& why);
  std::size_t watchers() const { return watchers_.size(); }
  std::size_t waiters() const { return waiters_.size(); }

 private:
  struct Watcher {
    std::int64_t cursor = 0;  // the last event id considered (sent, or filtered out)
    bool follow = true;
    JobQuery filter;
    double sent_at = 0;  // monotonic time of its last batch
  };
  struct Waiter {
    std::vector<std::int64_t> ids;      // as asked
    std::set<std::int64_t> remaining;  // jobs not yet ended
  };
  // Sends the events of `events` after the watcher's cursor that it asks for, while its
  // connection has room; false if it ran out of room before the end.
  bool feed(int fd, Watcher& w, const std::vector<LoggedEvent>& events);
  // The same from the window of recent events (each encoded once, for every watcher).
  bool feed_recent(int fd, Watcher& w);
  // Feeds one watcher as far as its connection has room; false when its stream ended
  // (a watch without follow got to the end, or the store could not be read).
  bool catch_up(int fd, Watcher& w);
  // Sends what waits for `fd` if it makes a batch (kBatchBytes, or kBatchDelayS since the
  // last one); else leaves it for flush_due().
  void settle(int fd, Watcher& w);
  void finish_wait(int fd);
  Store& store_;
  Connections& connections_;
  const Clock& clock_;
  // The last events, each with its line, while someone watches: a watcher anywhere in
  // this window (cursor >= recent_.start()) is fed from memory, every event encoded once
  // whatever the number of watchers; one further behind reads the store.
  static constexpr std::size_t kRecentEvents = 20000;
  RecentEvents recent_{kRecentEvents};
  std::string gathered_;  // a filtering watcher's lines (kept: its capacity is reused)
  std::int64_t head_ = 0;          // the last event id handed out
  std::map<int, Watcher> watchers_;
  std::set<int> holding_;  // the watchers with a batch held back (settle())
  std::map<int, Waiter> waiters_;
  std::multimap<std::int64_t, int> waiting_on_;  // job id -> waiter's fd
};

}  // namespace yard
