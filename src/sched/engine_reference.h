// The policy engine's pass as first written, for tests: the optimized PolicyEngine must
// return exactly what this returns (ranking, starts, preemptions and reservations).
#pragma once

#include <span>
#include <vector>

#include "sched/engine.h"

namespace yard::sched::reference {

std::vector<RankedJob> reference_rank(const PolicyEngine& engine, std::span<const QueuedJob> queue,
                                      const Accounts& accounts, Time now);
PassResult reference_schedule(const PolicyEngine& engine, std::span<const QueuedJob> queue,
                              std::span<const RunningJob> running, const Accounts& accounts, Time now);

}  // namespace yard::sched::reference
