#include "sched/backfill.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace yard::sched {

void Backfiller::submit(const Request& job, Time now, std::vector<Decision>& out) {
  profile_.forget_before(now);
  if (policy_.unlimited()) {
    // Every job gets its reservation on arrival; the others keep theirs.
    const Time start = profile_.earliest_start(now, job.procs, job.estimate);
    if (start == kNever) {  // wider than the machine: never starts
      queue_.push_back({job, kNever});
      return;
    }
    profile_.allocate(start, job.estimate, job.procs);
    out.push_back({job.id, start});
    if (start > now) queue_.push_back({job, start});
    return;
  }
  queue_.push_back({job, kNever});
  pass(now, out);
}

void Backfiller::enqueue(const Request& job) { queue_.push_back({job, kNever}); }

void Backfiller::finish(Time start, Time estimate, Procs procs, Time now,
                        std::vector<Decision>& out) {
  const Time end = start + estimate;
  if (now < end) profile_.release(now, end - now, procs);
  schedule(now, out);
}

void Backfiller::schedule(Time now, std::vector<Decision>& out) {
  profile_.forget_before(now);
  if (policy_.unlimited()) {
    compress(now, out);
  } else {
    pass(now, out);
  }
}

// Unlimited depth: every waiting job, in submission order, moves to its earliest start
// given all other holds; a job never moves later, and one whose hold starts now has begun.
void Backfiller::compress(Time now, std::vector<Decision>& out) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < queue_.size(); ++i) {
    Waiting& w = queue_[i];
    if (w.reserved == kNever) {  // enqueued without a pass: reserve it now
      const Time start = profile_.earliest_start(now, w.job.procs, w.job.estimate);
      if (start == kNever) {  // wider than the machine: never starts
        queue_[kept++] = w;
        continue;
      }
      profile_.allocate(start, w.job.estimate, w.job.procs);
      w.reserved = start;
      out.push_back({w.job.id, start});
    } else if (w.reserved > now) {
      const Time start =
          profile_.earliest_start_before(now, w.job.procs, w.job.estimate, w.reserved);
      if (start < w.reserved) {
        profile_.release(w.reserved, w.job.estimate, w.job.procs);
        profile_.allocate(start, w.job.estimate, w.job.procs);
        w.reserved = start;
        out.push_back({w.job.id, start});
      }
    }
    if (w.reserved > now) queue_[kept++] = w;
  }
  queue_.resize(kept);
}

// Finite depth: jobs in queue order start if they fit now; the first `depth` that do not
// get a reservation for this pass only; with depth 0 the pass ends at the first of them.
// The jobs behind the last reservation are then backfilled.
void Backfiller::pass(Time now, std::vector<Decision>& out) {
  const std::size_t n = queue_.size();
  started_.clear();
  struct Hold {
    std::size_t index;
    Time start;
  };
  std::vector<Hold> holds;
  std::size_t i = 0;
  bool blocked = false;
  for (; i < n; ++i) {
    if (policy_.depth > 0 && std::cmp_greater_equal(holds.size(), policy_.depth)) break;
    const Request& job = queue_[i].job;
    const Time start = profile_.earliest_start(now, job.procs, job.estimate);
    if (start == now) {
      profile_.allocate(now, job.estimate, job.procs);
      out.push_back({job.id, now});
      started_.push_back(i);
      continue;
    }
    if (start == kNever) continue;  // wider than the machine: never starts
    if (policy_.depth == 0) {
      blocked = true;
      break;
    }
    profile_.allocate(start, job.estimate, job.procs);
    holds.push_back({i, start});
  }
  if (!blocked) backfill(now, i, out);
  for (const Hold& h : holds) {
    profile_.release(h.start, queue_[h.index].job.estimate, queue_[h.index].job.procs);
  }
  drop_started();
}

void Backfiller::backfill(Time now, std::size_t from, std::vector<Decision>& out) {
  const std::size_t n = queue_.size();
  if (from >= n) return;
  floors_.build(profile_, now);
  if (floors_.free_now() == 0) return;
  auto try_start = [&](std::size_t k) {
    const Request& job = queue_[k].job;
    if (job.procs > floors_.free_now() || floors_.min_free(job.estimate) < job.procs) return;
    profile_.allocate(now, job.estimate, job.procs);
    floors_.take(job.procs, job.estimate);
    out.push_back({job.id, now});
    started_.push_back(k);
  };
  if (policy_.order == BackfillOrder::kQueue) {
    for (std::size_t k = from; k < n && floors_.free_now() > 0; ++k) try_start(k);
    return;
  }
  // Shortest estimate first, ties in queue order. Only jobs that fit in what is free now
  // can start in this pass, and the pass ends when nothing is free: a heap of those jobs
  // yields them in order without sorting the whole queue.
  by_estimate_.clear();
  for (std::size_t k = from; k < n; ++k) {
    const Request& job = queue_[k].job;
    if (job.procs <= floors_.free_now()) by_estimate_.emplace_back(job.estimate, k);
  }
  const auto later = std::greater<>();
  std::make_heap(by_estimate_.begin(), by_estimate_.end(), later);
  while (!by_estimate_.empty() && floors_.free_now() > 0) {
    std::pop_heap(by_estimate_.begin(), by_estimate_.end(), later);
    try_start(by_estimate_.back().second);
    by_estimate_.pop_back();
  }
}

// Removes the jobs started in this pass from the queue, keeping the order of the rest.
// The common case, a run of jobs at the front, costs only their number.
void Backfiller::drop_started() {
  if (started_.empty()) return;
  std::sort(started_.begin(), started_.end());
  std::size_t prefix = 0;
  while (prefix < started_.size() && started_[prefix] == prefix) ++prefix;
  if (prefix < started_.size()) {
    std::size_t kept = started_[prefix];
    std::size_t next = prefix;
    for (std::size_t k = kept; k < queue_.size(); ++k) {
      if (next < started_.size() && started_[next] == k) {
        ++next;
        continue;
      }
      queue_[kept++] = queue_[k];
    }
    queue_.resize(kept);
  }
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(prefix));
}

}  // namespace yard::sched
