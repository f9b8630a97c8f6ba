#include "sched/profile.h"

#include <algorithm>
#include <iterator>

namespace yard::sched {

namespace {
constexpr Time kMinTime = std::numeric_limits<Time>::min();
}

Profile::Profile(Procs total) : total_(total) { points_.push_back({kMinTime, total}); }

Profile::ConstIter Profile::segment(Time t) const {
  auto it = std::upper_bound(begin(), points_.cend(), t,
                             [](Time value, const Point& p) { return value < p.time; });
  return std::prev(it);
}

Procs Profile::free_at(Time t) const { return segment(t)->free; }

Procs Profile::min_free(Time start, Time duration) const {
  const Time end = start + duration;
  auto it = segment(start);
  Procs low = it->free;
  for (++it; it != points_.end() && it->time < end; ++it) low = std::min(low, it->free);
  return low;
}

Time Profile::earliest_start(Time from, Procs procs, Time duration) const {
  if (procs > total_) return kNever;
  Time candidate = from;
  auto it = segment(from);
  // The last point always has every processor free, so the loop ends.
  for (;;) {
    if (it->free < procs) {
      ++it;
      candidate = it->time;
      continue;
    }
    auto next = std::next(it);
    if (next == points_.end() || next->time >= candidate + duration) return candidate;
    it = next;
  }
}

Time Profile::earliest_start_before(Time from, Procs procs, Time duration, Time limit) const {
  if (from >= limit) return limit;
  Time candidate = from;
  auto it = segment(from);
  while (candidate < limit) {
    if (it->free < procs) {
      ++it;
      if (it == points_.end()) return limit;
      candidate = it->time;
      continue;
    }
    auto next = std::next(it);
    const Time needed = std::min(candidate + duration, limit);
    if (next == points_.end() || next->time >= needed) return candidate;
    it = next;
  }
  return limit;
}

void Profile::floors_from(Time now, std::vector<Floor>& out) const {
  out.clear();
  auto it = segment(now);
  out.push_back({now, it->free});
  for (++it; it != points_.end(); ++it) {
    if (it->free < out.back().min) out.push_back({it->time, it->free});
  }
}

void Profile::forget_before(Time now) {
  const auto index = static_cast<std::size_t>(segment(now) - points_.begin());
  if (index == first_) return;
  first_ = index;
  points_[first_].time = kMinTime;
  // Erase history in bulk, not on every call.
  if (first_ >= 64 && 2 * first_ >= points_.size()) {
    points_.erase(points_.begin(), points_.begin() + static_cast<std::ptrdiff_t>(first_));
    first_ = 0;
  }
}

std::size_t Profile::split_at(Time t) {
  const auto it = segment(t);
  auto index = static_cast<std::size_t>(it - points_.begin());
  if (it->time == t) return index;
  const Procs free = it->free;
  points_.insert(points_.begin() + static_cast<std::ptrdiff_t>(index + 1), Point{t, free});
  return index + 1;
}

void Profile::merge_at(std::size_t i) {
  if (i <= first_ || i >= points_.size()) return;
  if (points_[i - 1].free == points_[i].free) {
    points_.erase(points_.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

void Profile::allocate_all(std::span<const Hold> holds) {
  struct Change {
    Time time;
    Procs delta;
  };
  std::vector<Change> changes;
  changes.reserve(2 * holds.size());
  for (const Hold& h : holds) {
    if (h.duration <= 0 || h.procs == 0) continue;
    changes.push_back({h.start, -h.procs});
    changes.push_back({h.start + h.duration, h.procs});
  }
  if (changes.empty()) return;
  std::sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) { return a.time < b.time; });
  // Sweep the current points and the changes in time order; keep a point only where the
  // free count changes, as add() does.
  std::vector<Point> out(points_.begin(), points_.begin() + static_cast<std::ptrdiff_t>(first_));
  out.reserve(first_ + (points_.size() - first_) + changes.size());
  std::size_t p = first_;
  std::size_t c = 0;
  Procs base = points_[first_].free;  // the current profile at the sweep's time
  Procs taken = 0;                    // the changes up to the sweep's time
  const std::size_t head = out.size();
  while (p < points_.size() || c < changes.size()) {
    Time t = std::numeric_limits<Time>::max();
    if (p < points_.size()) t = points_[p].time;
    if (c < changes.size()) t = std::min(t, changes[c].time);
    if (p < points_.size() && points_[p].time == t) base = points_[p++].free;
    for (; c < changes.size() && changes[c].time == t; ++c) taken += changes[c].delta;
    // May go below zero: holds are taken as given (running jobs the caller reports may
    // exceed what the profile was told the machine has); such a stretch has no room.
    const Procs free = base + taken;
    if (out.size() == head || out.back().free != free) out.push_back({t, free});
  }
  points_ = std::move(out);
}

void Profile::add(Time start, Time end, Procs delta) {
  if (start >= end || delta == 0) return;
  const std::size_t first = split_at(start);
  const std::size_t last = split_at(end);
  for (std::size_t i = first; i < last; ++i) points_[i].free += delta;  // may go below zero, as above
  merge_at(last);
  merge_at(first);
}

}  // namespace yard::sched
