#include "sched/profile.h"

#include <algorithm>
#include <cassert>
#include <iterator>

namespace yard::sched {

namespace {
constexpr Time kMinTime = std::numeric_limits<Time>::min();
}

Profile::Profile(Procs total) : total_(total) { free_.emplace(kMinTime, total); }

Procs Profile::free_at(Time t) const { return segment(t)->second; }

Procs Profile::min_free(Time start, Time duration) const {
  const Time end = start + duration;
  auto it = segment(start);
  Procs low = it->second;
  for (++it; it != free_.end() && it->first < end; ++it) low = std::min(low, it->second);
  return low;
}

Time Profile::earliest_start(Time from, Procs procs, Time duration) const {
  if (procs > total_) return kNever;
  Time candidate = from;
  auto it = segment(from);
  // The last segment always has every processor free, so the loop ends.
  for (;;) {
    if (it->second < procs) {
      ++it;
      candidate = it->first;
      continue;
    }
    auto next = std::next(it);
    if (next == free_.end() || next->first >= candidate + duration) return candidate;
    it = next;
  }
}

Time Profile::earliest_start_before(Time from, Procs procs, Time duration, Time limit) const {
  if (from >= limit) return limit;
  Time candidate = from;
  auto it = segment(from);
  while (candidate < limit) {
    if (it->second < procs) {
      ++it;
      if (it == free_.end()) return limit;
      candidate = it->first;
      continue;
    }
    auto next = std::next(it);
    const Time needed = std::min(candidate + duration, limit);
    if (next == free_.end() || next->first >= needed) return candidate;
    it = next;
  }
  return limit;
}

void Profile::forget_before(Time now) {
  auto it = segment(now);
  if (it == free_.begin()) return;
  free_.erase(free_.begin(), it);
  auto node = free_.extract(free_.begin());
  node.key() = kMinTime;
  free_.insert(std::move(node));
}

Profile::Map::iterator Profile::split_at(Time t) {
  auto it = std::prev(free_.upper_bound(t));
  if (it->first == t) return it;
  return free_.emplace_hint(std::next(it), t, it->second);
}

// Removes the breakpoint at `it` when it does not change the value.
void Profile::merge_at(Map::iterator it) {
  if (it == free_.begin() || it == free_.end()) return;
  if (std::prev(it)->second == it->second) free_.erase(it);
}

void Profile::add(Time start, Time end, Procs delta) {
  if (start >= end || delta == 0) return;
  auto first = split_at(start);
  auto last = split_at(end);
  for (auto it = first; it != last; ++it) {
    it->second += delta;
    assert(it->second >= 0 && it->second <= total_);
  }
  merge_at(last);
  merge_at(first);
}

}  // namespace yard::sched
