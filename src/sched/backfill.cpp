#include "sched/backfill.h"

#include <algorithm>
#include <utility>

namespace yard::sched {

void Backfiller::submit(const Request& job, Time now, std::vector<Decision>& out) {
  profile_.forget_before(now);
  if (policy_.unlimited()) {
    // Every job gets its reservation on arrival; the others keep theirs.
    const Time start = profile_.earliest_start(now, job.procs, job.estimate);
    if (start == kNever) return;
    profile_.allocate(start, job.estimate, job.procs);
    out.push_back({job.id, start});
    if (start > now) queue_.push_back({job, start});
    return;
  }
  queue_.push_back({job, kNever});
  pass(now, out);
}

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
    if (w.reserved > now) {
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
  started_.assign(n, 0);
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
      started_[i] = 1;
      continue;
    }
    if (policy_.depth == 0 || start == kNever) {
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
  std::size_t kept = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (!started_[k]) queue_[kept++] = queue_[k];
  }
  queue_.resize(kept);
}

void Backfiller::backfill(Time now, std::size_t from, std::vector<Decision>& out) {
  const std::size_t n = queue_.size();
  if (from >= n) return;
  order_.resize(n - from);
  for (std::size_t k = from; k < n; ++k) order_[k - from] = k;
  if (policy_.order == BackfillOrder::kShortestEstimate) {
    std::stable_sort(order_.begin(), order_.end(), [this](std::size_t a, std::size_t b) {
      return queue_[a].job.estimate < queue_[b].job.estimate;
    });
  }
  Procs free_now = profile_.free_at(now);
  for (std::size_t k : order_) {
    if (free_now == 0) break;
    const Request& job = queue_[k].job;
    if (job.procs > free_now || !profile_.fits(now, job.procs, job.estimate)) continue;
    profile_.allocate(now, job.estimate, job.procs);
    out.push_back({job.id, now});
    started_[k] = 1;
    free_now -= job.procs;
  }
}

}  // namespace yard::sched
