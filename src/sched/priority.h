// Multifactor job priority:
//   priority = w_tier * tier + w_age * age + w_fairshare * fairshare + w_size * size
// with every factor in [0, 1]:
//   tier       the tier's priority / the largest tier priority of the config (0 without tiers)
//   age        min(1, (now - submit) / max_age)
//   fairshare  the account's fair-share factor (accounts.h)
//   size       min(1, processors of the job / processors of the cluster)
// The queue is ordered by priority descending, then submit time, then job id.
#pragma once

#include <string_view>

#include "sched/policy_config.h"

namespace yard::sched {

struct PriorityFactors {
  double tier = 0;
  double age = 0;
  double fairshare = 0;
  double size = 0;
};

double tier_factor(const PolicyConfig& config, std::string_view tier);
double age_factor(Time waited, Time max_age);
double size_factor(Procs procs, Procs total);
double weighted_priority(const Weights& weights, const PriorityFactors& factors);

}  // namespace yard::sched
