// The clocks, read here only: the wall clock (seconds since the epoch: what the store
// records and users see) and the monotonic one (for deadlines: immune to clock changes).
//
// Code whose behaviour depends on time (the local scheduler's planning and hand-offs, the
// indirect engine's polling) takes a Clock, so that its tests drive time with a FakeClock
// instead of waiting for it; the daemon gives it system_clock().
#pragma once

#include <string>

namespace yard {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual double wall() const = 0;       // seconds since the epoch
  virtual double monotonic() const = 0;  // seconds since some fixed point
};

// The machine's clocks.
const Clock& system_clock();

// Time that moves only when told to (tests).
class FakeClock : public Clock {
 public:
  explicit FakeClock(double wall = 1'700'000'000.0) : wall_(wall) {}
  double wall() const override { return wall_; }
  double monotonic() const override { return monotonic_; }
  void advance(double seconds) {
    wall_ += seconds;
    monotonic_ += seconds;
  }

 private:
  double wall_;
  double monotonic_ = 1000.0;
};

// Shorthands for system_clock().wall() and .monotonic(), for code with nothing to fake.
double wall_now();
double monotonic_now();

// A wall time (seconds since the epoch) in UTC, formatted by strftime's `format`.
std::string utc_text(double t, const char* format);

}  // namespace yard
