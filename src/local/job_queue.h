// The local backend's queue of jobs waiting to run, with array throttles ("%50": at most
// 50 elements of an array running at once). Which ready job starts, and when, is decided
// by the scheduling policy (local_scheduler.h); the queue only says which jobs may be
// considered: every queued job except array elements held back by their throttle.
// Not thread safe: owned by the daemon's event loop.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

namespace yard {

struct QueuedJob {
  std::int64_t id = 0;
  int priority = 0;  // --priority: larger first
  double submit_time = 0;
  int cpus = 1;
  std::uint64_t mem_bytes = 0;
  int gpus = 0;
  std::int64_t array_job_id = 0;  // 0 = not an array element
  int array_max_running = 0;
  std::string account;          // the account charged (already defaulted)
  std::int64_t walltime_s = 0;  // 0 = none given
  // What starting it needs besides (so no store look-up per start).
  std::string uid;
  std::int64_t spec_id = 0;
  std::optional<std::int64_t> array_index;
};

class JobQueue {
 public:
  // A pending job whose dependencies are satisfied.
  void push(const QueuedJob& job);
  // Removes a queued job (cancel; a held one too); false if it is not queued.
  bool remove(std::int64_t id);
  // A held job (yard hold) is kept out of the ready jobs: taken out if queued, and set
  // aside if pushed while held, until release() pushes it (if it was ready by then).
  void hold(std::int64_t id);
  bool release(std::int64_t id);  // false: it was not held
  bool held(std::int64_t id) const { return held_.count(id) != 0; }
  // A ready job was started: it leaves the queue (and still counts against its throttle).
  void started(std::int64_t id);
  // An array element that was started has ended: lets the next element through.
  void element_ended(std::int64_t array_job_id);
  // A running array element found again after a restart counts against its throttle.
  void element_running(std::int64_t array_job_id, int max_running);

  // The jobs that may start now (not held back by a throttle), by id.
  const std::map<std::int64_t, QueuedJob>& ready() const { return ready_; }
  // The same, in the order of a policy that weighs only --priority (larger first), then
  // submit second, then id: the local scheduler's first jobs without a sort of them all.
  struct PlainKey {
    int priority;
    std::int64_t submit_s, id;
    bool operator<(const PlainKey& o) const {
      if (priority != o.priority) return priority > o.priority;
      if (submit_s != o.submit_s) return submit_s < o.submit_s;
      return id < o.id;
    }
  };
  const std::set<PlainKey>& plain_order() const { return plain_order_; }
  static PlainKey plain_key(const QueuedJob& j);
  std::size_t size() const { return by_id_.size(); }
  bool contains(std::int64_t id) const { return by_id_.count(id) != 0; }

 private:
  struct Throttle {
    int limit = 0;
    int active = 0;  // elements in the ready set or running
    std::deque<QueuedJob> backlog;
  };

  void make_ready(const QueuedJob& job);
  bool unready(std::int64_t id);

  std::map<std::int64_t, QueuedJob> ready_;
  std::set<PlainKey> plain_order_;  // ready_, ordered
  std::unordered_map<std::int64_t, QueuedJob> by_id_;  // every queued job, ready or backlogged
  std::unordered_map<std::int64_t, Throttle> throttles_;
  std::unordered_map<std::int64_t, std::optional<QueuedJob>> held_;  // and what was pushed meanwhile
};

}  // namespace yard
