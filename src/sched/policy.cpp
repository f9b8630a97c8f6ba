#include "sched/policy.h"

namespace yard::sched {

std::optional<Policy> policy_by_name(std::string_view name) {
  if (name == "fcfs") return Policy::fcfs();
  if (name == "easy") return Policy::easy();
  if (name == "conservative") return Policy::conservative();
  if (name == "sjbf") return Policy::sjbf();
  return std::nullopt;
}

std::string policy_names() { return "fcfs|easy|conservative|sjbf"; }

}  // namespace yard::sched
