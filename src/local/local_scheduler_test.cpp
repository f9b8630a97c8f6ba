#include "local/local_scheduler.h"

#include <gtest/gtest.h>

#include <vector>

namespace yard {
namespace {

constexpr double kNow = 1000;

Machine machine(int cpus, std::uint64_t mem = 1 << 30, int gpus = 0) {
  Machine m;
  m.cpus = cpus;
  m.mem_bytes = mem;
  m.gpus = gpus;
  return m;
}

QueuedJob job(std::int64_t id, int cpus, double submit, std::int64_t walltime_s = 0, int priority = 0) {
  QueuedJob j;
  j.id = id;
  j.cpus = cpus;
  j.submit_time = submit;
  j.walltime_s = walltime_s;
  j.priority = priority;
  j.account = "default";
  return j;
}

std::vector<std::int64_t> ids(const LocalScheduler::Plan& p) {
  std::vector<std::int64_t> out;
  for (auto& s : p.start) out.push_back(s.id);
  return out;
}

TEST(LocalScheduler, HigherPriorityFirstThenSubmitTime) {
  ResourcePool pool(machine(4));
  LocalScheduler sched(sched::PolicyConfig{}, 4);
  JobQueue q;
  q.push(job(1, 3, 1));
  q.push(job(2, 3, 2, 0, 5));  // --priority 5: first
  q.push(job(3, 3, 3));
  auto p = sched.pass(q, {}, pool, 10, kNow);
  EXPECT_EQ(ids(p), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(pool.free_cpus(), 1);
}

TEST(LocalScheduler, EasyBackfillsOnlyWhatEndsBeforeTheReservation) {
  ResourcePool pool(machine(4));
  LocalScheduler sched(sched::PolicyConfig{}, 4);
  ASSERT_TRUE(pool.allocate(2, 0, 0));  // a running job: 2 cpus for 100 s more
  const std::vector<RunningJobView> running = {{99, "default", kNow - 20, 2, 120}};
  JobQueue q;
  q.push(job(1, 4, 1, 60));   // wide: waits for the running one, reserved at +100
  q.push(job(2, 2, 2, 300));  // would delay it
  q.push(job(3, 2, 3, 50));   // ends before the reservation: backfilled
  auto p = sched.pass(q, running, pool, 10, kNow);
  EXPECT_EQ(ids(p), (std::vector<std::int64_t>{3}));
}

TEST(LocalScheduler, JobsWithoutWalltimeAreEstimatedAtTheDefault) {
  const std::vector<RunningJobView> running = {{99, "default", kNow, 2, 100}};
  for (sched::Time def : {3600, 30}) {
    ResourcePool pool(machine(4));
    ASSERT_TRUE(pool.allocate(2, 0, 0));
    sched::PolicyConfig c;
    c.default_walltime = def;
    LocalScheduler sched(c, 4);
    EXPECT_EQ(sched.estimate(0), def);
    EXPECT_EQ(sched.estimate(7), 7);
    JobQueue q;
    q.push(job(1, 4, 1, 60));
    q.push(job(2, 2, 2));  // no walltime
    auto p = sched.pass(q, running, pool, 10, kNow);
    EXPECT_EQ(ids(p), def == 30 ? std::vector<std::int64_t>{2} : std::vector<std::int64_t>{}) << def;
  }
}

TEST(LocalScheduler, AJobThatDoesNotFitInMemoryHoldsItAgainstLaterJobs) {
  ResourcePool pool(machine(4, 10, 1));
  LocalScheduler sched(sched::PolicyConfig{}, 4);
  auto busy = pool.allocate(1, 6, 0);  // 4 bytes of memory left
  ASSERT_TRUE(busy);
  const std::vector<RunningJobView> running = {{99, "default", kNow, 1, 100}};
  JobQueue q;
  auto a = job(1, 1, 1, 0, 2);
  a.mem_bytes = 8;  // first in order, does not fit now
  auto b = job(2, 1, 2, 0, 1);
  b.mem_bytes = 3;  // would fit, but in memory the first one waits for
  auto c = job(3, 1, 3);
  c.gpus = 1;  // needs no memory
  q.push(a);
  q.push(b);
  q.push(c);
  auto p = sched.pass(q, running, pool, 10, kNow);
  EXPECT_EQ(ids(p), (std::vector<std::int64_t>{3}));
  EXPECT_EQ(pool.free_mem(), 4u);
  EXPECT_EQ(pool.free_gpus(), 0);
  q.started(3);
  pool.release(*busy);
  pool.release(p.start[0].alloc);
  p = sched.pass(q, {}, pool, 10, kNow + 1);
  EXPECT_EQ(ids(p), (std::vector<std::int64_t>{1}));  // 8 of 10 taken: the other waits
  EXPECT_EQ(pool.free_mem(), 2u);
}

TEST(LocalScheduler, GpusAreHeldLikeMemory) {
  ResourcePool pool(machine(8, 1 << 20, 2));
  LocalScheduler sched(sched::PolicyConfig{}, 8);
  ASSERT_TRUE(pool.allocate(1, 0, 1));
  JobQueue q;
  auto a = job(1, 1, 1);
  a.gpus = 2;
  auto b = job(2, 1, 2);
  b.gpus = 1;
  q.push(a);
  q.push(b);
  const std::vector<RunningJobView> running = {{99, "default", kNow, 1, 100}};
  auto p = sched.pass(q, running, pool, 10, kNow);
  EXPECT_TRUE(p.start.empty());
  EXPECT_EQ(pool.free_gpus(), 1);
}

TEST(LocalScheduler, PreemptsBestEffortForAHigherTierAndRespectsSlots) {
  auto c = sched::parse_policy_config(R"(
weights: {tier: 1}
tiers:
  - {name: gold, priority: 2}
  - {name: scavenger, priority: 1, best_effort: true}
accounts:
  - {name: g, tier: gold}
  - {name: x, tier: scavenger}
)",
                                      "p.yaml");
  ASSERT_TRUE(c.ok()) << c.error();
  ResourcePool pool(machine(4));
  LocalScheduler sched(*c, 4);
  ASSERT_TRUE(pool.allocate(3, 0, 0));  // the best-effort job below
  JobQueue q;
  auto gold = job(1, 2, 5);
  gold.account = "g";
  q.push(gold);
  const std::vector<RunningJobView> running = {{99, "x", kNow - 10, 3, 0}};
  auto p = sched.pass(q, running, pool, 10, kNow);
  EXPECT_EQ(p.preempt, (std::vector<std::int64_t>{99}));
  EXPECT_TRUE(p.start.empty());  // its CPUs are free only once the preempted job stopped
  // Higher tier first when both wait; one slot: only the first starts.
  ResourcePool idle(machine(4));
  JobQueue both;
  auto scav = job(2, 1, 1);
  scav.account = "x";
  both.push(scav);
  both.push(gold);
  p = sched.pass(both, {}, idle, 1, kNow);
  EXPECT_EQ(ids(p), (std::vector<std::int64_t>{1}));
}

TEST(LocalScheduler, AccountDefaults) {
  LocalScheduler plain(sched::PolicyConfig{}, 1);
  EXPECT_EQ(plain.account_of(""), "default");
  EXPECT_EQ(plain.account_of("physics"), "physics");
  sched::PolicyConfig c;
  c.default_account = "lab";
  EXPECT_EQ(LocalScheduler(c, 1).account_of(""), "lab");
}

}  // namespace
}  // namespace yard

namespace yard {
namespace {

// Many queued: a pass considers the first max_jobs_per_pass in priority order (so a
// late job with a high --priority is among them), and the cut changes nothing up front.
TEST(LocalScheduler, ALongQueueIsCutInPriorityOrderNotById) {
  sched::PolicyConfig cfg;
  cfg.max_jobs_per_pass = 10;
  ResourcePool pool(machine(2));
  LocalScheduler sched(cfg, 2);
  JobQueue q;
  for (int i = 1; i <= 100; ++i) q.push(job(i, 1, i));
  q.push(job(101, 1, 101, 0, 9));  // last in, first by --priority
  auto p = sched.pass(q, {}, pool, 10, kNow);
  EXPECT_EQ(ids(p), (std::vector<std::int64_t>{101, 1}));
}

}  // namespace
}  // namespace yard
