#include "local/job_queue.h"

#include <algorithm>

namespace yard {

void JobQueue::push(const QueuedJob& job) {
  if (by_id_.count(job.id)) return;  // already queued
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
  ready_[job.id] = job;
}

bool JobQueue::remove(std::int64_t id) {
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return false;
  const QueuedJob job = it->second;
  by_id_.erase(it);
  if (ready_.erase(id)) {
    if (job.array_job_id && job.array_max_running > 0) element_ended(job.array_job_id);
    return true;
  }
  if (auto t = throttles_.find(job.array_job_id); t != throttles_.end()) {
    auto& b = t->second.backlog;
    b.erase(std::remove_if(b.begin(), b.end(), [&](const QueuedJob& q) { return q.id == id; }), b.end());
  }
  return true;
}

void JobQueue::started(std::int64_t id) {
  if (ready_.erase(id)) by_id_.erase(id);
}

void JobQueue::element_ended(std::int64_t array_job_id) {
  auto it = throttles_.find(array_job_id);
  if (it == throttles_.end()) return;
  auto& t = it->second;
  if (t.active > 0) --t.active;
  while (t.active < t.limit && !t.backlog.empty()) {
    ready_[t.backlog.front().id] = t.backlog.front();
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

}  // namespace yard
