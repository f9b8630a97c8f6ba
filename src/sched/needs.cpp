#include "sched/needs.h"

#include <algorithm>

namespace yard::sched {

bool add_component(const Component& c, const std::vector<Pool>& pools, std::vector<Need>& out) {
  if (c.pool >= pools.size() || c.procs < 1 || c.memory < 0 || c.gpus < 0 || c.nodes < 0) return false;
  const Pool& p = pools[c.pool];
  if (c.nodes > 0 && (c.nodes > p.nodes || c.procs > p.cores_per_node || c.gpus > p.gpus_per_node ||
                      (p.memory_per_node > 0 && c.memory > p.memory_per_node))) {
    return false;
  }
  const std::int64_t amounts[kResources] = {c.total_cores(), p.memory() > 0 ? c.total_memory() : 0,
                                            c.total_gpus()};
  for (std::size_t r = 0; r < kResources; ++r) {
    if (amounts[r] <= 0) continue;
    const std::size_t profile = c.pool * kResources + r;
    auto it = std::find_if(out.begin(), out.end(), [&](const Need& n) { return n.profile == profile; });
    if (it == out.end()) {
      out.push_back({profile, amounts[r]});
    } else {
      it->amount += amounts[r];
    }
  }
  return true;
}

bool merge(const std::vector<Component>& components, const std::vector<Pool>& pools,
           std::vector<Need>& out) {
  out.clear();
  if (components.empty()) return false;
  for (const Component& c : components) {
    if (!add_component(c, pools, out)) return false;
  }
  std::sort(out.begin(), out.end(), [](const Need& a, const Need& b) { return a.profile < b.profile; });
  for (const Need& n : out) {
    if (n.amount > capacity(pools, n.profile)) return false;
  }
  return true;
}

Procs total_procs(const std::vector<Component>& components) {
  Procs sum = 0;
  for (const Component& c : components) sum += c.total_cores();
  return sum;
}

}  // namespace yard::sched
