// Login rate limiting: after 5 failed logins within a minute for one name, or 20 from one
// address, further attempts are refused (429) until the minute has passed, whether the
// password is right or not: guessing costs a minute per handful of tries.
#pragma once

#include <deque>
#include <map>
#include <mutex>
#include <string>

namespace yard::web {

class LoginLimiter {
 public:
  static constexpr int kPerName = 5, kPerAddress = 20;
  static constexpr double kWindowS = 60;
  // Seconds to wait before trying again (0: go ahead).
  double wait_s(const std::string& name, const std::string& address, double now);
  void failed(const std::string& name, const std::string& address, double now);

 private:
  double wait_in(std::deque<double>& failures, int allowed, double now);
  std::mutex mu_;
  std::map<std::string, std::deque<double>> by_name_, by_address_;
};

}  // namespace yard::web
