// The local backend's queue of jobs ready to run: ordered by a QueueOrder (an interface
// the policy engine replaces; the interim order is priority, then submit time), with
// array throttles ("%50": at most 50 elements of an array running at once).
// A pass starts jobs in order while they fit and stops at the first that does not, so a
// large job at the head is never starved by smaller ones behind it.
// Not thread safe: owned by the daemon's event loop.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

#include "local/resource_pool.h"

namespace yard {

struct QueuedJob {
  std::int64_t id = 0;
  int priority = 0;
  double submit_time = 0;
  int cpus = 1;
  std::uint64_t mem_bytes = 0;
  int gpus = 0;
  std::int64_t array_job_id = 0;  // 0 = not an array element
  int array_max_running = 0;
};

class QueueOrder {
 public:
  virtual ~QueueOrder() = default;
  virtual bool before(const QueuedJob& a, const QueuedJob& b) const = 0;
};

// Higher priority first, then earlier submission, then lower id.
class PriorityThenSubmitOrder final : public QueueOrder {
 public:
  bool before(const QueuedJob& a, const QueuedJob& b) const override;
};

class JobQueue {
 public:
  explicit JobQueue(std::unique_ptr<QueueOrder> order);

  // A pending job whose dependencies are satisfied.
  void push(const QueuedJob& job);
  // Removes a queued job (cancel); false if it is not queued.
  bool remove(std::int64_t id);
  // An array element that was started has ended: lets the next element through.
  void element_ended(std::int64_t array_job_id);
  // A running array element found again after a restart counts against its throttle.
  void element_running(std::int64_t array_job_id, int max_running);

  struct Start {
    std::int64_t id;
    Allocation alloc;
  };
  // Starts jobs in order while they fit in `pool` and `slots` (running-job limit) allows.
  std::vector<Start> pass(ResourcePool& pool, int slots);

  std::size_t size() const { return by_id_.size(); }
  bool contains(std::int64_t id) const { return by_id_.count(id) != 0; }

 private:
  struct Cmp {
    const QueueOrder* order;
    bool operator()(const QueuedJob& a, const QueuedJob& b) const { return order->before(a, b); }
  };
  struct Throttle {
    int limit = 0;
    int active = 0;  // elements in the ready set or running
    std::deque<QueuedJob> backlog;
  };
  void admit(const QueuedJob& job);

  std::unique_ptr<QueueOrder> order_;
  std::set<QueuedJob, Cmp> ready_;
  std::unordered_map<std::int64_t, QueuedJob> by_id_;  // every queued job, ready or backlogged
  std::unordered_map<std::int64_t, Throttle> throttles_;
};

}  // namespace yard
