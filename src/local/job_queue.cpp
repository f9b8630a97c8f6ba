#include "local/job_queue.h"

#include <algorithm>
#include <cmath>

namespace yard {

JobQueue::PlainKey JobQueue::plain_key(const QueuedJob& j) {
  return {j.priority, static_cast<std::int64_t>(std::floor(j.submit_time)), j.id};
}

void JobQueue::make_ready(const QueuedJob& job) {
  auto [it, inserted] = ready_.insert_or_assign(job.id, job);
  (void)it;
  (void)inserted;
  plain_order_.insert(plain_key(job));
}

bool JobQueue::unready(std::int64_t id) {
  auto it = ready_.find(id);
  if (it == ready_.end()) return false;
  plain_order_.erase(plain_key(it->second));
  ready_.erase(it);
  return true;
}

void JobQueue::push(const QueuedJob& job) {
  if (auto h = held_.find(job.id); h != held_.end()) {
    h->second = job;  // it waits aside until released
    return;
  }
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
  make_ready(job);
}

void JobQueue::hold(std::int64_t id) {
  if (held_.count(id)) return;
  std::optional<QueuedJob> waiting;
  if (auto it = by_id_.find(id); it != by_id_.end()) {
    waiting = it->second;
    remove(id);
  }
  held_[id] = waiting;
}

bool JobQueue::release(std::int64_t id) {
  auto h = held_.find(id);
  if (h == held_.end()) return false;
  const std::optional<QueuedJob> waiting = h->second;
  held_.erase(h);
  if (waiting) push(*waiting);
  return true;
}

bool JobQueue::remove(std::int64_t id) {
  if (auto h = held_.find(id); h != held_.end()) {
    const bool was_queued = h->second.has_value();
    held_.erase(h);
    return was_queued;
  }
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return false;
  const QueuedJob job = it->second;
  by_id_.erase(it);
  if (unready(id)) {
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
  if (unready(id)) by_id_.erase(id);
}

void JobQueue::element_ended(std::int64_t array_job_id) {
  auto it = throttles_.find(array_job_id);
  if (it == throttles_.end()) return;
  auto& t = it->second;
  if (t.active > 0) --t.active;
  while (t.active < t.limit && !t.backlog.empty()) {
    make_ready(t.backlog.front());
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
