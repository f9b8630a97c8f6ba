// A token bucket: at most `rate` calls per second sustained, bursts of at most `burst`.
// Slurm itself limits each user's RPCs with such a bucket (about 2 per second
// sustained); staying under it keeps a busy user from being throttled by the cluster.
#pragma once

#include <algorithm>

namespace yard {

class RateLimiter {
 public:
  RateLimiter(double rate_per_s, double burst) : rate_(rate_per_s), burst_(std::max(1.0, burst)), tokens_(burst_) {}

  // Takes a token if one is there at time `now` (seconds, monotonic).
  bool try_take(double now) {
    refill(now);
    if (rate_ <= 0) return true;  // unlimited
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }
  // Seconds from `now` until a token is there.
  double wait_s(double now) {
    refill(now);
    if (rate_ <= 0 || tokens_ >= 1) return 0;
    return (1 - tokens_) / rate_;
  }

 private:
  void refill(double now) {
    if (now < last_) last_ = now;  // the clock went back: no refill, no debt
    if (last_ > 0 && rate_ > 0) tokens_ = std::min(burst_, tokens_ + (now - last_) * rate_);
    last_ = now;
  }
  double rate_, burst_, tokens_, last_ = 0;
};

}  // namespace yard
