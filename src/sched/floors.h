// Floors: for one instant `now`, the fewest free processors over [now, now + d) for every
// duration d, kept as a short staircase so that "can this job start now?" costs a binary
// search instead of a walk along the profile. Backfilling asks that question of every
// waiting job in a pass; jobs that start update the staircase in place. Derived from a
// Profile (Profile::floors_from) and valid until the profile changes otherwise.
#pragma once

#include <algorithm>
#include <vector>

#include "sched/profile.h"

namespace yard::sched {

class Floors {
 public:
  void build(const Profile& profile, Time now) {
    now_ = now;
    profile.floors_from(now, steps_);
  }

  Procs free_now() const { return steps_.front().min; }

  // Fewest free processors over [now, now + duration); duration > 0.
  Procs min_free(Time duration) const {
    const Time end = now_ + duration;
    auto it = std::lower_bound(steps_.begin(), steps_.end(), end,
                               [](const Profile::Floor& f, Time t) { return f.from < t; });
    return std::prev(it)->min;
  }

  // A job of `procs` starts now for `duration`: windows ending by now + duration lose
  // `procs`; longer ones can have no more than what is left at now + duration.
  void take(Procs procs, Time duration) {
    const Time end = now_ + duration;
    std::size_t k = 0;
    for (; k < steps_.size() && steps_[k].from < end; ++k) steps_[k].min -= procs;
    const Procs cap = steps_[k - 1].min;
    std::size_t kept = k;
    for (; k < steps_.size(); ++k) {
      if (steps_[k].min < cap) steps_[kept++] = steps_[k];
    }
    steps_.resize(kept);
  }

 private:
  Time now_ = 0;
  std::vector<Profile::Floor> steps_;
};

}  // namespace yard::sched
