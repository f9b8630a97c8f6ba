#include "core/retry_policy.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace yard {
namespace {

constexpr JobState kCauses[] = {JobState::OutOfMemory, JobState::Timeout, JobState::NodeFail, JobState::Lost,
                                JobState::Failed};

double grown(double first, double factor, int retry) { return first * std::pow(factor, retry); }

}  // namespace

bool RetryPolicy::covers(JobState state, std::optional<std::int64_t> exit_code) const {
  if (std::find(on.begin(), on.end(), state) != on.end()) return true;
  return state == JobState::Failed && exit_code &&
         std::find(exit_codes.begin(), exit_codes.end(), *exit_code) != exit_codes.end();
}

std::uint64_t RetryPolicy::mem_for(std::uint64_t first, int retry) const {
  if (first == 0) return 0;
  double m = grown(static_cast<double>(first), grow_mem, retry);
  if (cap_mem_bytes) m = std::min(m, static_cast<double>(std::max(cap_mem_bytes, first)));
  return static_cast<std::uint64_t>(std::min(m, 9.0e18));
}

std::int64_t RetryPolicy::time_for(std::int64_t first, int retry) const {
  if (first <= 0) return first;
  double t = grown(static_cast<double>(first), grow_time, retry);
  if (cap_time_s) t = std::min(t, static_cast<double>(std::max(cap_time_s, first)));
  return static_cast<std::int64_t>(std::min(std::ceil(t), 9.0e18));
}

Result<JobState> retry_cause(std::string_view name) {
  for (auto c : kCauses)
    if (name == to_string(c)) return c;
  return err("retry: unknown cause '" + std::string(name) +
             "' (accepted: OUT_OF_MEMORY, TIMEOUT, NODE_FAIL, LOST, FAILED; an exit code goes under exit:)");
}

Status validate(const RetryPolicy& p) {
  if (p.times < 0 || p.times > 100) return err("retry: times must be 0 to 100, not " + std::to_string(p.times));
  if (p.backoff_s < 0 || p.backoff_s > 7 * 86400.0) return err("retry: backoff must be 0 to 7 days");
  if (!(p.grow_mem >= 1 && p.grow_mem <= 100) || !(p.grow_time >= 1 && p.grow_time <= 100))
    return err("retry: grow factors must be 1 to 100 (2x doubles each try)");
  for (auto s : p.on)
    if (std::find(std::begin(kCauses), std::end(kCauses), s) == std::end(kCauses))
      return err("retry: '" + std::string(to_string(s)) + "' is not a cause of failure");
  return {};
}

nlohmann::json retry_to_json(const RetryPolicy& p) {
  nlohmann::json on = nlohmann::json::array();
  for (auto s : p.on) on.push_back(std::string(to_string(s)));
  return {{"times", p.times},        {"on", on},
          {"exit", p.exit_codes},    {"backoff_s", p.backoff_s},
          {"grow_mem", p.grow_mem},  {"grow_time", p.grow_time},
          {"cap_mem", p.cap_mem_bytes}, {"cap_time_s", p.cap_time_s}};
}

RetryPolicy retry_from_json(const nlohmann::json& j) {
  RetryPolicy p;
  p.times = j.at("times").get<int>();
  for (const auto& s : j.value("on", nlohmann::json::array())) {
    auto state = parse_job_state(s.get<std::string>());
    if (!state) throw std::invalid_argument("retry: unknown state " + s.get<std::string>());
    p.on.push_back(*state);
  }
  p.exit_codes = j.value("exit", std::vector<std::int64_t>{});
  p.backoff_s = j.value("backoff_s", 0.0);
  p.grow_mem = j.value("grow_mem", 1.0);
  p.grow_time = j.value("grow_time", 1.0);
  p.cap_mem_bytes = j.value("cap_mem", std::uint64_t{0});
  p.cap_time_s = j.value("cap_time_s", std::int64_t{0});
  return p;
}

}  // namespace yard
