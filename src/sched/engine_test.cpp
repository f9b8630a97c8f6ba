// Accounts ledger, decay, priority math and the policy engine's pass.
#include "sched/engine.h"

#include <gtest/gtest.h>

#include <cmath>

namespace yard::sched {
namespace {

constexpr Time kDay = 86400;

TEST(Accounts, LedgerChargesAllocationAndRemaining) {
  PolicyConfig c;
  c.tiers = {{"t", 1, false}};
  c.accounts = {{"a", "t", 1, 10}, {"b", "t", 3, 0}};
  Accounts ledger = Accounts::from_config(c);
  EXPECT_EQ(ledger.size(), 2u);
  EXPECT_DOUBLE_EQ(ledger.allocation("a"), 36000);
  ledger.charge("a", 3600, 100);
  ledger.charge("a", 1800, 200);
  EXPECT_DOUBLE_EQ(ledger.used("a"), 5400);
  EXPECT_DOUBLE_EQ(ledger.remaining("a"), 30600);
  EXPECT_DOUBLE_EQ(ledger.remaining("b"), 0);
  ledger.charge("newcomer", 10, 300);  // unknown accounts are added with share 0
  EXPECT_TRUE(ledger.has("newcomer"));
  const auto report = ledger.report(300);
  ASSERT_EQ(report.size(), 3u);
  EXPECT_EQ(report[0].name, "a");
  EXPECT_DOUBLE_EQ(report[0].used_core_seconds, 5400);
  EXPECT_DOUBLE_EQ(report[2].fairshare, 0);  // zero share, some usage
}

TEST(Accounts, UsageHalvesEveryHalfLife) {
  Accounts ledger(kDay);
  ledger.set("a", 1, 0);
  ledger.charge("a", 1000, 0);
  EXPECT_DOUBLE_EQ(ledger.decayed_usage("a", 0), 1000);
  EXPECT_DOUBLE_EQ(ledger.decayed_usage("a", kDay), 500);
  EXPECT_DOUBLE_EQ(ledger.decayed_usage("a", 3 * kDay), 125);
  ledger.charge("a", 500, kDay);  // 500 left of the first charge + 500
  EXPECT_DOUBLE_EQ(ledger.decayed_usage("a", 2 * kDay), 500);
  EXPECT_DOUBLE_EQ(ledger.used("a"), 1500);  // the ledger itself never decays
}

TEST(Accounts, NoDecayWithZeroHalfLife) {
  Accounts ledger(0);
  ledger.charge("a", 1000, 0);
  EXPECT_DOUBLE_EQ(ledger.decayed_usage("a", 100 * kDay), 1000);
}

TEST(Accounts, FairShareIsTwoToTheMinusUsageOverShare) {
  Accounts ledger(0);
  ledger.set("a", 1, 0);
  ledger.set("b", 3, 0);
  EXPECT_DOUBLE_EQ(ledger.fairshare("a", 0), 1);  // nobody used anything
  ledger.charge("a", 300, 0);
  ledger.charge("b", 100, 0);
  // a: U = 0.75, S = 0.25 -> 2^-3; b: U = 0.25, S = 0.75 -> 2^(-1/3)
  EXPECT_DOUBLE_EQ(ledger.fairshare("a", 0), 0.125);
  EXPECT_NEAR(ledger.fairshare("b", 0), std::exp2(-1.0 / 3.0), 1e-12);
  EXPECT_DOUBLE_EQ(ledger.fairshare("unknown", 0), 1);  // no usage of its own
}

TEST(Priority, FactorsAndWeights) {
  PolicyConfig c;
  c.tiers = {{"high", 4, false}, {"low", 1, true}};
  EXPECT_DOUBLE_EQ(tier_factor(c, "high"), 1);
  EXPECT_DOUBLE_EQ(tier_factor(c, "low"), 0.25);
  EXPECT_DOUBLE_EQ(tier_factor(c, "none"), 0);
  EXPECT_DOUBLE_EQ(age_factor(kDay, 2 * kDay), 0.5);
  EXPECT_DOUBLE_EQ(age_factor(5 * kDay, 2 * kDay), 1);
  EXPECT_DOUBLE_EQ(age_factor(-5, 2 * kDay), 0);
  EXPECT_DOUBLE_EQ(size_factor(16, 64), 0.25);
  EXPECT_DOUBLE_EQ(size_factor(100, 64), 1);
  EXPECT_DOUBLE_EQ(weighted_priority({1000, 100, 10, 1}, {1, 0.5, 0.25, 0.5}), 1053.0);
}

PolicyConfig tiered(int depth) {
  PolicyConfig c;
  c.reservation_depth = depth;
  c.weights = {1000, 1, 100, 0};
  c.max_age = 1000;
  c.tiers = {{"gold", 3, false}, {"silver", 2, false}, {"scavenger", 1, true}};
  c.accounts = {{"g", "gold", 1, 0}, {"s", "silver", 1, 0}, {"s2", "silver", 1, 0},
                {"x", "scavenger", 1, 0}};
  return c;
}

QueuedJob queued(JobId id, std::string account, Time submit, Procs procs, Time estimate,
                 std::size_t pool = 0) {
  return {id, std::move(account), submit, estimate, {{pool, procs}}};
}

TEST(Engine, RankOrdersByTierThenFairShareThenSubmit) {
  PolicyEngine engine(tiered(1), {10});
  Accounts ledger = Accounts::from_config(engine.config());
  ledger.charge("s", 1000, 0);  // s has used, s2 has not: s2 first within silver
  const std::vector<QueuedJob> q = {queued(1, "x", 0, 1, 10), queued(2, "s", 0, 1, 10),
                                    queued(3, "s2", 5, 1, 10), queued(4, "g", 9, 1, 10)};
  const auto ranked = engine.rank(q, ledger, 10);
  ASSERT_EQ(ranked.size(), 4u);
  EXPECT_EQ(ranked[0].id, 4);
  EXPECT_EQ(ranked[1].id, 3);
  EXPECT_EQ(ranked[2].id, 2);
  EXPECT_EQ(ranked[3].id, 1);
  EXPECT_TRUE(ranked[3].best_effort);
  EXPECT_DOUBLE_EQ(ranked[0].factors.tier, 1);
  EXPECT_DOUBLE_EQ(ranked[2].factors.age, 0.01);
}

TEST(Engine, TiesBySubmitThenId) {
  PolicyEngine engine(PolicyConfig{}, {10});
  Accounts ledger;
  const std::vector<QueuedJob> q = {queued(7, "a", 5, 1, 10), queued(3, "a", 5, 1, 10),
                                    queued(9, "a", 1, 1, 10)};
  const auto ranked = engine.rank(q, ledger, 5);
  EXPECT_EQ(ranked[0].id, 9);
  EXPECT_EQ(ranked[1].id, 3);
  EXPECT_EQ(ranked[2].id, 7);
}

TEST(Engine, UserPriorityComesBeforeTheWeightedPriority) {
  PolicyEngine engine(tiered(1), {10});
  Accounts ledger;
  std::vector<QueuedJob> q = {queued(1, "g", 0, 1, 10), queued(2, "s", 5, 1, 10), queued(3, "x", 0, 1, 10)};
  q[1].user_priority = 5;  // silver, but asked for more: before gold
  q[2].user_priority = 9;  // best-effort stays behind every non-best-effort job
  const auto ranked = engine.rank(q, ledger, 10);
  ASSERT_EQ(ranked.size(), 3u);
  EXPECT_EQ(ranked[0].id, 2);
  EXPECT_EQ(ranked[1].id, 1);
  EXPECT_EQ(ranked[2].id, 3);
}

TEST(Engine, EasyReservesForTheHeadAndBackfillsBehindIt) {
  PolicyEngine engine(tiered(1), {10});
  Accounts ledger;
  const std::vector<RunningJob> running = {{100, "s", 0, 50, {{0, 6}}}};
  const std::vector<QueuedJob> q = {queued(1, "g", 1, 8, 100), queued(2, "s", 1, 4, 40),
                                    queued(3, "s", 1, 4, 60)};
  const PassResult r = engine.schedule(q, running, ledger, 10);
  ASSERT_EQ(r.reserved.size(), 1u);
  EXPECT_EQ(r.reserved[0], (std::pair<JobId, Time>{1, 50}));
  ASSERT_EQ(r.start.size(), 1u);
  EXPECT_EQ(r.start[0], 2);  // ends by 50; job 3 would delay job 1
  EXPECT_TRUE(r.preempt.empty());
}

TEST(Engine, DepthZeroStopsAtTheFirstBlockedJob) {
  PolicyEngine engine(tiered(0), {10});
  Accounts ledger;
  const std::vector<RunningJob> running = {{100, "s", 0, 50, {{0, 6}}}};
  const std::vector<QueuedJob> q = {queued(1, "g", 1, 8, 100), queued(2, "s", 1, 4, 40)};
  const PassResult r = engine.schedule(q, running, ledger, 10);
  EXPECT_TRUE(r.start.empty());
  EXPECT_TRUE(r.reserved.empty());
}

TEST(Engine, UnlimitedDepthReservesEveryBlockedJob) {
  PolicyEngine engine(tiered(Policy::kUnlimited), {10});
  Accounts ledger;
  const std::vector<RunningJob> running = {{100, "s", 0, 50, {{0, 6}}}};
  const std::vector<QueuedJob> q = {queued(1, "g", 1, 8, 100), queued(2, "s", 1, 8, 40),
                                    queued(3, "s", 2, 4, 200)};
  const PassResult r = engine.schedule(q, running, ledger, 10);
  ASSERT_EQ(r.reserved.size(), 3u);
  EXPECT_EQ(r.reserved[0], (std::pair<JobId, Time>{1, 50}));
  EXPECT_EQ(r.reserved[1], (std::pair<JobId, Time>{2, 150}));
  EXPECT_EQ(r.reserved[2], (std::pair<JobId, Time>{3, 190}));
  EXPECT_TRUE(r.start.empty());
}

TEST(Engine, BestEffortRunsOnlyInWhatIsLeftAndHoldsNoReservation) {
  PolicyEngine engine(tiered(1), {10});
  Accounts ledger;
  const std::vector<RunningJob> running = {{100, "s", 0, 50, {{0, 6}}}};
  // The scavenger job is first by submission but runs last; it would delay job 1.
  const std::vector<QueuedJob> q = {queued(5, "x", 0, 4, 100), queued(1, "g", 1, 8, 100),
                                    queued(6, "x", 0, 2, 30)};
  const PassResult r = engine.schedule(q, running, ledger, 10);
  ASSERT_EQ(r.reserved.size(), 1u);
  EXPECT_EQ(r.reserved[0].first, 1);
  ASSERT_EQ(r.start.size(), 1u);
  EXPECT_EQ(r.start[0], 6);
}

TEST(Engine, HigherTierPreemptsBestEffortLowestTierAndNewestFirst) {
  PolicyConfig c = tiered(1);
  c.tiers.push_back({"open", 0.5, true});
  c.accounts.push_back({"o", "open", 1, 0});
  PolicyEngine engine(c, {10});
  Accounts ledger;
  const std::vector<RunningJob> running = {{100, "s", 0, 500, {{0, 4}}},
                                           {101, "x", 0, 500, {{0, 2}}},
                                           {102, "x", 5, 500, {{0, 2}}},
                                           {103, "o", 0, 500, {{0, 2}}}};
  const std::vector<QueuedJob> q = {queued(1, "g", 1, 4, 100)};
  const PassResult r = engine.schedule(q, running, ledger, 10);
  ASSERT_EQ(r.start.size(), 1u);
  EXPECT_EQ(r.start[0], 1);
  ASSERT_EQ(r.preempt.size(), 2u);
  EXPECT_EQ(r.preempt[0], 103);  // lowest tier
  EXPECT_EQ(r.preempt[1], 102);  // then the most recently started
}

TEST(Engine, NoPreemptionWhenItWouldNotBeEnough) {
  PolicyEngine engine(tiered(1), {10});
  Accounts ledger;
  const std::vector<RunningJob> running = {{100, "s", 0, 500, {{0, 8}}},
                                           {101, "x", 0, 500, {{0, 2}}}};
  const std::vector<QueuedJob> q = {queued(1, "g", 1, 4, 100)};
  const PassResult r = engine.schedule(q, running, ledger, 10);
  EXPECT_TRUE(r.start.empty());
  EXPECT_TRUE(r.preempt.empty());
  ASSERT_EQ(r.reserved.size(), 1u);
}

TEST(Engine, BestEffortDoesNotPreemptItsOwnTier) {
  PolicyEngine engine(tiered(1), {4});
  Accounts ledger;
  const std::vector<RunningJob> running = {{101, "x", 0, 500, {{0, 4}}}};
  const std::vector<QueuedJob> q = {queued(1, "x", 1, 4, 100)};
  const PassResult r = engine.schedule(q, running, ledger, 10);
  EXPECT_TRUE(r.start.empty());
  EXPECT_TRUE(r.preempt.empty());
}

TEST(Engine, CoAllocatedJobStartsWhenEveryComponentFitsAndReservesAll) {
  PolicyEngine engine(tiered(1), {8, 4});
  Accounts ledger;
  // Pool 0 frees 4 at t=100; pool 1 frees 2 at t=200: common start 200.
  const std::vector<RunningJob> running = {{100, "s", 0, 100, {{0, 8}}},
                                           {101, "s", 0, 200, {{1, 4}}}};
  QueuedJob het{1, "g", 1, 50, {{0, 4}, {1, 2}}};
  // Job 2 (pool 0, ends by 300) would overlap job 1's hold on pool 0 at 200: waits.
  // Job 3 (pool 0, 4 procs until 180) ends before the hold: backfills at 100.
  const std::vector<QueuedJob> q = {het, queued(2, "s", 2, 8, 200), queued(3, "s", 3, 4, 80)};
  PassResult r = engine.schedule(q, running, ledger, 10);
  ASSERT_EQ(r.reserved.size(), 1u);
  EXPECT_EQ(r.reserved[0], (std::pair<JobId, Time>{1, 200}));
  EXPECT_TRUE(r.start.empty());
  const std::vector<RunningJob> later = {{101, "s", 0, 200, {{1, 4}}}};
  r = engine.schedule(q, later, ledger, 100);
  ASSERT_EQ(r.start.size(), 1u);
  EXPECT_EQ(r.start[0], 3);
}

TEST(Engine, JobsThatCanNeverStartAreLeftQueued) {
  PolicyEngine engine(tiered(1), {8});
  Accounts ledger;
  const std::vector<QueuedJob> q = {queued(1, "g", 0, 9, 10), queued(2, "g", 0, 1, 10, 3),
                                    queued(3, "g", 0, 8, 10)};
  const PassResult r = engine.schedule(q, {}, ledger, 0);
  ASSERT_EQ(r.start.size(), 1u);
  EXPECT_EQ(r.start[0], 3);
}

constexpr std::int64_t kGiB = std::int64_t{1} << 30;

// A component of `nodes` nodes, each with `cores`, `mem_gib` GiB and `gpus`.
Component per_node(std::size_t pool, std::int64_t nodes, Procs cores, std::int64_t mem_gib,
                   std::int64_t gpus) {
  return {pool, cores, mem_gib * kGiB, gpus, nodes};
}

TEST(EngineResources, JobThatFitsCoresButNotMemoryWaits) {
  // 2 nodes x 8 cores x 64 GiB: 16 cores, 128 GiB.
  PolicyEngine engine(tiered(1), {Pool(2, 8, 64 * kGiB, 0)});
  Accounts ledger;
  // 2 cores but 100 GiB held until 100: 14 cores free, only 28 GiB.
  const std::vector<RunningJob> running = {{100, "s", 0, 100, {{0, 2, 100 * kGiB}}}};
  const std::vector<QueuedJob> q = {{1, "g", 1, 50, {per_node(0, 1, 4, 32, 0)}},
                                    {2, "s", 2, 50, {per_node(0, 1, 4, 16, 0)}}};
  const PassResult r = engine.schedule(q, running, ledger, 10);
  ASSERT_EQ(r.reserved.size(), 1u);
  EXPECT_EQ(r.reserved[0], (std::pair<JobId, Time>{1, 100}));
  ASSERT_EQ(r.start.size(), 1u);
  EXPECT_EQ(r.start[0], 2);  // 16 GiB fit beside the running job, and it ends by 100
}

TEST(EngineResources, JobThatFitsCoresButNotGpusWaits) {
  // 2 nodes x 8 cores x 4 GPUs; memory not accounted.
  PolicyEngine engine(tiered(1), {Pool(2, 8, 0, 4)});
  Accounts ledger;
  const std::vector<RunningJob> running = {{100, "s", 0, 100, {per_node(0, 2, 1, 0, 3)}}};
  // 14 cores and 2 GPUs free: job 1 needs 2 nodes x 2 GPUs = 4.
  const std::vector<QueuedJob> q = {{1, "g", 1, 500, {per_node(0, 2, 1, 0, 2)}},
                                    {2, "s", 2, 50, {per_node(0, 1, 1, 0, 2)}},
                                    {3, "s", 3, 500, {per_node(0, 1, 8, 0, 0)}}};
  const PassResult r = engine.schedule(q, running, ledger, 10);
  ASSERT_EQ(r.reserved.size(), 1u);
  EXPECT_EQ(r.reserved[0], (std::pair<JobId, Time>{1, 100}));
  // Job 2 takes the 2 free GPUs until 60, before job 1's hold; job 3 asks no GPU and
  // its 8 cores fit beside every other hold: both start.
  EXPECT_EQ(r.start, (std::vector<JobId>{2, 3}));
}

TEST(EngineResources, ReservationHoldsMemoryAndGpusOfEveryComponent) {
  // Pool 0: 4 nodes x 16 cores x 32 GiB; pool 1: 2 nodes x 8 cores x 64 GiB x 2 GPUs.
  PolicyEngine engine(tiered(1), {Pool(4, 16, 32 * kGiB, 0), Pool(2, 8, 64 * kGiB, 2)});
  Accounts ledger;
  // Pool 0's memory is full until 100; pool 1 has everything free.
  const std::vector<RunningJob> running = {{100, "s", 0, 100, {{0, 4, 128 * kGiB}}}};
  // Job 1: 1 node x 16 GiB in pool 0 + 2 nodes x 2 GPUs x 32 GiB in pool 1; reserved at 100.
  const QueuedJob het{1, "g", 1, 100, {per_node(0, 1, 1, 16, 0), per_node(1, 2, 1, 32, 2)}};
  const std::vector<QueuedJob> q = {
      het,
      {2, "s", 2, 200, {per_node(1, 1, 1, 1, 1)}},  // a GPU until 210: overlaps the hold
      {3, "s", 3, 200, {per_node(1, 2, 1, 35, 0)}},  // 70 GiB until 210: 64 left beside the hold
      {4, "s", 4, 200, {per_node(1, 1, 1, 20, 0)}},  // 20 GiB: fits beside the hold
      {5, "s", 5, 50, {per_node(1, 2, 1, 1, 1)}}};   // 2 GPUs until 60: before the hold
  const PassResult r = engine.schedule(q, running, ledger, 10);
  ASSERT_EQ(r.reserved.size(), 1u);
  EXPECT_EQ(r.reserved[0], (std::pair<JobId, Time>{1, 100}));
  EXPECT_EQ(r.start, (std::vector<JobId>{4, 5}));
}

TEST(EngineResources, RequestsLargerThanAPoolOrANodeNeverStart) {
  PolicyEngine engine(tiered(1), {Pool(2, 8, 64 * kGiB, 1), Pool(16)});
  Accounts ledger;
  const std::vector<QueuedJob> q = {
      {1, "g", 0, 10, {per_node(0, 3, 1, 1, 0)}},    // 3 nodes of 2
      {2, "g", 0, 10, {per_node(0, 1, 9, 1, 0)}},    // 9 cores on an 8-core node
      {3, "g", 0, 10, {per_node(0, 1, 1, 65, 0)}},   // 65 GiB on a 64 GiB node
      {4, "g", 0, 10, {per_node(0, 1, 1, 1, 2)}},    // 2 GPUs on a 1-GPU node
      {5, "g", 0, 10, {{0, 4, 129 * kGiB}}},         // more memory than the pool
      {6, "g", 0, 10, {{1, 1, 0, 1}}},               // a GPU in a pool without GPUs
      {7, "g", 0, 10, {{1, 16, 1000 * kGiB}}},       // memory not accounted in pool 1
      {8, "g", 0, 10, {per_node(0, 2, 8, 64, 1)}}};  // exactly the whole pool 0
  const PassResult r = engine.schedule(q, {}, ledger, 0);
  EXPECT_EQ(r.start, (std::vector<JobId>{7, 8}));
  EXPECT_TRUE(r.reserved.empty());
}

TEST(EngineResources, ProcsShorthandIsOneNodeOfThatManyCores) {
  const Pool p(12);
  EXPECT_EQ(p.nodes, 1);
  EXPECT_EQ(p.cores(), 12);
  EXPECT_EQ(p.memory(), 0);
  EXPECT_EQ(p.gpus(), 0);
  const Component c = per_node(0, 3, 4, 2, 1);
  EXPECT_EQ(c.total_cores(), 12);
  EXPECT_EQ(c.total_memory(), 6 * kGiB);
  EXPECT_EQ(c.total_gpus(), 3);
}

}  // namespace
}  // namespace yard::sched
