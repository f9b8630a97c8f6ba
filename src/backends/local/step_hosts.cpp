#include "backends/local/step_hosts.h"

#include <algorithm>

#include "core/text.h"

namespace yard {
namespace {

const std::string& host_of_slot(const std::vector<std::string>& slots, int slot) {
  return slots.at(static_cast<std::size_t>(std::clamp(slot, 0, static_cast<int>(slots.size()) - 1)));
}

}  // namespace

std::vector<std::string> task_hosts(const LaunchPlan& plan, const JobSpec& spec, const std::vector<std::string>& slots) {
  std::vector<std::string> hosts;
  std::size_t next = 0;
  auto host_of = [&](std::size_t k) {
    const std::size_t at = std::min(k, plan.pus.empty() ? 0 : plan.pus.size() - 1);
    return host_of_slot(slots, plan.pus.empty() ? 0 : plan.pus[at]);
  };
  auto add = [&](const Resources& r) {
    for (std::int64_t t = 0; t < r.ntasks; ++t) {
      hosts.push_back(host_of(next));
      next += static_cast<std::size_t>(std::max<std::int64_t>(1, r.cpus_per_task));
    }
  };
  add(spec.res);
  for (const auto& c : spec.components) add(c.res);
  return hosts;
}

std::vector<std::string> slot_hosts(const LaunchPlan& plan, const std::vector<std::string>& slots) {
  std::vector<std::string> out;
  for (int slot : plan.pus) out.push_back(host_of_slot(slots, slot));
  return out;
}

std::string mpirun_hosts(const std::vector<std::string>& tasks) {
  std::vector<std::pair<std::string, int>> counts;
  for (const auto& h : tasks) {
    auto it = std::find_if(counts.begin(), counts.end(), [&](auto& c) { return c.first == h; });
    if (it == counts.end()) counts.emplace_back(h, 1);
    else ++it->second;
  }
  std::string out;
  for (auto& [h, n] : counts) out += (out.empty() ? "" : ",") + h + ":" + std::to_string(n);
  return out;
}

void set_env(std::vector<std::string>& env, const std::string& key, const std::string& value) {
  const std::string prefix = key + "=";
  std::erase_if(env, [&](const std::string& e) { return starts_with(e, prefix); });
  env.push_back(prefix + value);
}

}  // namespace yard
