#include "sched/priority.h"

#include <algorithm>

namespace yard::sched {

double tier_factor(const PolicyConfig& config, std::string_view tier) {
  double top = 0;
  for (const TierConfig& t : config.tiers) top = std::max(top, t.priority);
  const TierConfig* t = config.tier(tier);
  if (t == nullptr || top <= 0) return 0;
  return t->priority / top;
}

double age_factor(Time waited, Time max_age) {
  if (waited <= 0 || max_age <= 0) return 0;
  return std::min(1.0, static_cast<double>(waited) / static_cast<double>(max_age));
}

double size_factor(Procs procs, Procs total) {
  if (procs <= 0 || total <= 0) return 0;
  return std::min(1.0, static_cast<double>(procs) / static_cast<double>(total));
}

double weighted_priority(const Weights& w, const PriorityFactors& f) {
  return w.tier * f.tier + w.age * f.age + w.fairshare * f.fairshare + w.size * f.size;
}

}  // namespace yard::sched
