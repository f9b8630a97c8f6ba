// Availability profile (timeline): how many processors are free at every instant, built
// from the estimated end of running jobs and from reservations of waiting ones. It is the
// one place that answers "where does a job of P processors and duration D fit?"; the
// pyss-exact backfilling of `yard sim` (backfill.h) is written against it (the local
// backend schedules with the PolicyEngine, engine.h). Times and processor counts are
// plain integers (seconds, processors).
// Not thread-safe: one owner mutates it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace yard::sched {

using Time = std::int64_t;
using Procs = std::int64_t;

// A start time that never comes (a request larger than the machine).
inline constexpr Time kNever = std::numeric_limits<Time>::max();

class Profile {
 public:
  explicit Profile(Procs total);

  Procs total() const { return total_; }
  Procs free_at(Time t) const;
  // Fewest free processors over [start, start + duration); duration > 0.
  Procs min_free(Time start, Time duration) const;
  bool fits(Time start, Procs procs, Time duration) const {
    return min_free(start, duration) >= procs;
  }
  // Earliest t >= from such that `procs` are free over [t, t + duration); kNever when
  // procs exceeds the machine.
  Time earliest_start(Time from, Procs procs, Time duration) const;
  // Earliest t in [from, limit) at which a job now holding [limit, limit + duration) could
  // start instead: `procs` free over [t, min(t + duration, limit)). Returns limit if none.
  // The job's own hold lies at or after limit, so this needs no removal of it first.
  Time earliest_start_before(Time from, Procs procs, Time duration, Time limit) const;

  // Take / give back `procs` processors over [start, start + duration).
  void allocate(Time start, Time duration, Procs procs) { add(start, start + duration, -procs); }
  void release(Time start, Time duration, Procs procs) { add(start, start + duration, procs); }

  // Takes every hold at once: the same profile as allocating them one by one, in one sort
  // and one sweep instead of an insertion into the profile per hold.
  struct Hold {
    Time start;
    Time duration;
    Procs procs;
  };
  void allocate_all(std::span<const Hold> holds);

  // The fewest free processors over [now, now + d) as a function of d, as a staircase:
  // one Floor per strict decrease. See Floors in floors.h for queries and updates.
  struct Floor {
    Time from;  // windows ending after `from` (up to the next Floor) see `min`
    Procs min;
  };
  void floors_from(Time now, std::vector<Floor>& out) const;

  // Drops the history before `now`; later queries must ask about times >= now.
  void forget_before(Time now);
  // Number of breakpoints (for tests and benchmarks).
  std::size_t breakpoints() const { return points_.size() - first_; }

 private:
  struct Point {
    Time time;   // from this time until the next point's
    Procs free;  // this many processors are free
  };
  using Iter = std::vector<Point>::iterator;
  using ConstIter = std::vector<Point>::const_iterator;

  ConstIter begin() const { return points_.begin() + static_cast<std::ptrdiff_t>(first_); }
  ConstIter segment(Time t) const;  // the point whose span holds t
  std::size_t split_at(Time t);     // index of a point starting exactly at t
  void merge_at(std::size_t i);     // drops point i if it repeats its predecessor
  void add(Time start, Time end, Procs delta);

  Procs total_;
  // Sorted by time; points before first_ are history awaiting removal. The point at
  // first_ stands for "since forever". A flat vector: scans are what backfilling does most.
  std::vector<Point> points_;
  std::size_t first_ = 0;
};

}  // namespace yard::sched
