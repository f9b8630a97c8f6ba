#include "web/login_limiter.h"

#include <algorithm>

namespace yard::web {

double LoginLimiter::wait_in(std::deque<double>& failures, int allowed, double now) {
  while (!failures.empty() && failures.front() <= now - kWindowS) failures.pop_front();
  if (static_cast<int>(failures.size()) < allowed) return 0;
  return failures.front() + kWindowS - now;
}

double LoginLimiter::wait_s(const std::string& name, const std::string& address, double now) {
  std::lock_guard lock(mu_);
  return std::max(wait_in(by_name_[name], kPerName, now), wait_in(by_address_[address], kPerAddress, now));
}

void LoginLimiter::failed(const std::string& name, const std::string& address, double now) {
  std::lock_guard lock(mu_);
  by_name_[name].push_back(now);
  by_address_[address].push_back(now);
}

}  // namespace yard::web
