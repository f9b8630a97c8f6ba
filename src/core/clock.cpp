#include "core/clock.h"

#include <chrono>
#include <ctime>

namespace yard {
namespace {

class SystemClock final : public Clock {
 public:
  double wall() const override {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  }
  double monotonic() const override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
};

}  // namespace

const Clock& system_clock() {
  static const SystemClock clock;
  return clock;
}

double wall_now() { return system_clock().wall(); }
double monotonic_now() { return system_clock().monotonic(); }

std::string utc_text(double t, const char* format) {
  const std::time_t s = static_cast<std::time_t>(t);
  std::tm tm{};
  gmtime_r(&s, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

}  // namespace yard
