// The policy engine's pass against the reference implementation (engine_reference.h) on
// small random instances: pools with memory and GPUs, co-allocated and node-shaped
// requests, tiers with best-effort jobs to preempt, user priorities, fair-share usage,
// every reservation depth and both backfill orders. Rankings and pass results must be
// identical, field for field and in the same order.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "sched/engine.h"
#include "sched/engine_reference.h"

namespace yard::sched {
namespace {

struct Instance {
  PolicyConfig config;
  std::vector<Pool> pools;
  std::vector<QueuedJob> queue;
  std::vector<RunningJob> running;
  Accounts accounts;
  Time now = 0;
};

Instance random_instance(std::mt19937_64& rng) {
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  Instance in;
  const int depths[] = {0, 1, 2, 3, Policy::kUnlimited, Policy::kUnlimited};
  in.config.reservation_depth = depths[pick(0, 5)];
  in.config.backfill_order = pick(0, 1) ? BackfillOrder::kQueue : BackfillOrder::kShortestEstimate;
  in.config.weights = {static_cast<double>(pick(0, 3)), static_cast<double>(pick(0, 3)),
                       static_cast<double>(pick(0, 3)), static_cast<double>(pick(0, 3))};
  in.config.max_age = pick(1, 5000);
  in.config.tiers = {{"gold", 10, false}, {"silver", 5, false}, {"scav", 1, true}, {"free", 0, true}};
  in.config.accounts = {{"a", "gold", 1, 0}, {"b", "silver", 2, 0}, {"c", "scav", 1, 0},
                        {"d", "free", 1, 0}, {"e", "silver", 1, 0}};
  if (pick(0, 1)) in.config.default_account = pick(0, 1) ? "c" : "b";
  const char* names[] = {"a", "b", "c", "d", "e", "unknown"};

  const auto pools = pick(1, 3);
  for (std::int64_t p = 0; p < pools; ++p) {
    in.pools.emplace_back(pick(1, 6), pick(1, 8), pick(0, 1) ? pick(1, 64) : 0, pick(0, 2) ? 0 : pick(1, 4));
  }
  in.now = pick(0, 1000);
  in.accounts = Accounts(pick(0, 1) ? 0 : 500);
  for (const char* n : names) {
    if (pick(0, 2)) in.accounts.set(n, static_cast<double>(pick(0, 3)), 0);
    if (pick(0, 1)) in.accounts.charge(n, static_cast<double>(pick(0, 5000)), pick(0, in.now));
  }

  auto component = [&]() {
    Component c;
    c.pool = static_cast<std::size_t>(pick(0, pools - (pick(0, 30) ? 1 : 0)));  // rarely no such pool
    const Pool& p = in.pools[std::min<std::size_t>(c.pool, in.pools.size() - 1)];
    c.nodes = pick(0, 2) ? 0 : pick(1, p.nodes + (pick(0, 10) ? 0 : 1));
    c.procs = c.nodes > 0 ? pick(1, p.cores_per_node) : pick(1, std::max<std::int64_t>(p.cores() / 2, 1) + 1);
    c.memory = p.memory_per_node > 0 && pick(0, 1) ? pick(0, p.memory_per_node) : 0;
    c.gpus = p.gpus_per_node > 0 && pick(0, 1) ? pick(0, p.gpus_per_node) : 0;
    return c;
  };
  auto components = [&]() {
    std::vector<Component> cs;
    const auto n = pick(0, 6) ? 1 : pick(2, 3);
    for (std::int64_t k = 0; k < n; ++k) cs.push_back(component());
    return cs;
  };

  JobId id = 1;
  const auto running = pick(0, 12);
  for (std::int64_t r = 0; r < running; ++r) {
    RunningJob job;
    job.id = id++;
    job.account = names[pick(0, 5)];
    job.start = in.now - pick(0, 500);
    job.end = job.start + pick(1, 1500);  // some past their estimate
    job.components = components();
    in.running.push_back(std::move(job));
  }
  const auto queued = pick(0, 30);
  for (std::int64_t q = 0; q < queued; ++q) {
    QueuedJob job;
    job.id = id++;
    job.account = names[pick(0, 5)];
    job.submit = pick(0, in.now);
    if (!pick(0, 3)) job.submit = pick(0, 3) * 100;  // ties on submit
    job.estimate = pick(0, 3) ? pick(1, 1000) : 100 * pick(1, 5);  // ties on estimate
    job.components = components();
    job.user_priority = pick(0, 4) ? 0 : static_cast<int>(pick(-1, 2));
    in.queue.push_back(std::move(job));
  }
  if (pick(0, 1)) std::shuffle(in.queue.begin(), in.queue.end(), rng);  // else ids ascend
  return in;
}

std::string describe(const PassResult& r) {
  std::string s = "start:";
  for (JobId id : r.start) s += " " + std::to_string(id);
  s += " preempt:";
  for (JobId id : r.preempt) s += " " + std::to_string(id);
  s += " reserved:";
  for (const auto& [id, t] : r.reserved) s += " " + std::to_string(id) + "@" + std::to_string(t);
  return s;
}

TEST(EngineEquivalence, SameRankingAndPassAsTheReferenceOnRandomInstances) {
  std::mt19937_64 rng(20240611);
  for (int round = 0; round < 4000; ++round) {
    const Instance in = random_instance(rng);
    const PolicyEngine engine(in.config, in.pools);
    SCOPED_TRACE("round " + std::to_string(round));

    const auto ranked = engine.rank(in.queue, in.accounts, in.now);
    const auto expected_rank = reference::reference_rank(engine, in.queue, in.accounts, in.now);
    ASSERT_EQ(ranked.size(), expected_rank.size());
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      ASSERT_EQ(ranked[i].id, expected_rank[i].id);
      ASSERT_EQ(ranked[i].best_effort, expected_rank[i].best_effort);
      ASSERT_EQ(ranked[i].priority, expected_rank[i].priority);
      ASSERT_EQ(ranked[i].factors.tier, expected_rank[i].factors.tier);
      ASSERT_EQ(ranked[i].factors.age, expected_rank[i].factors.age);
      ASSERT_EQ(ranked[i].factors.fairshare, expected_rank[i].factors.fairshare);
      ASSERT_EQ(ranked[i].factors.size, expected_rank[i].factors.size);
    }

    const PassResult got = engine.schedule(in.queue, in.running, in.accounts, in.now);
    const PassResult want = reference::reference_schedule(engine, in.queue, in.running, in.accounts, in.now);
    ASSERT_EQ(describe(got), describe(want));
  }
}

}  // namespace
}  // namespace yard::sched
