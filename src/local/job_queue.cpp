#include "local/job_queue.h"

#include <algorithm>

namespace yard {

bool PriorityThenSubmitOrder::before(const QueuedJob& a, const QueuedJob& b) const {
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.submit_time != b.submit_time) return a.submit_time < b.submit_time;
  return a.id < b.id;
}

JobQueue::JobQueue(std::unique_ptr<QueueOrder> order) : order_(std::move(order)), ready_(Cmp{order_.get()}) {}

void JobQueue::push(const QueuedJob& job) {
  by_id_[job.id] = job;
  if (job.array_job_id && job.array_max_running > 0) {
    auto& t = throttles_[job.array_job_id];
    t.limit = job.array_max_running;
    if (t.active >= t.limit) {
      t.backlog.push_back(job);
      return;
    }
    ++t.active;
  }
  ready_.insert(job);
}

bool JobQueue::remove(std::int64_t id) {
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return false;
  const QueuedJob job = it->second;
  by_id_.erase(it);
  if (ready_.erase(job)) {
    if (job.array_job_id && job.array_max_running > 0) element_ended(job.array_job_id);
    return true;
  }
  if (auto t = throttles_.find(job.array_job_id); t != throttles_.end()) {
    auto& b = t->second.backlog;
    b.erase(std::remove_if(b.begin(), b.end(), [&](const QueuedJob& q) { return q.id == id; }), b.end());
  }
  return true;
}

void JobQueue::element_ended(std::int64_t array_job_id) {
  auto it = throttles_.find(array_job_id);
  if (it == throttles_.end()) return;
  auto& t = it->second;
  if (t.active > 0) --t.active;
  while (t.active < t.limit && !t.backlog.empty()) {
    ready_.insert(t.backlog.front());
    t.backlog.pop_front();
    ++t.active;
  }
  if (t.active == 0 && t.backlog.empty()) throttles_.erase(it);
}

void JobQueue::element_running(std::int64_t array_job_id, int max_running) {
  if (!array_job_id || max_running <= 0) return;
  auto& t = throttles_[array_job_id];
  t.limit = max_running;
  ++t.active;
}

std::vector<JobQueue::Start> JobQueue::pass(ResourcePool& pool, int slots) {
  std::vector<Start> started;
  while (!ready_.empty() && slots > 0) {
    auto it = ready_.begin();
    auto alloc = pool.allocate(it->cpus, it->mem_bytes, it->gpus);
    if (!alloc) break;  // strict order: the head waits, nobody overtakes it
    started.push_back({it->id, std::move(*alloc)});
    by_id_.erase(it->id);
    ready_.erase(it);
    --slots;
  }
  return started;
}

}  // namespace yard
