#include "local/job_queue.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

Machine machine(int cpus, std::uint64_t mem = 1 << 30, int gpus = 0) {
  Machine m;
  m.cpus = cpus;
  m.mem_bytes = mem;
  m.gpus = gpus;
  return m;
}

QueuedJob job(std::int64_t id, int cpus, int priority = 0, double submit = 0) {
  QueuedJob j;
  j.id = id;
  j.cpus = cpus;
  j.priority = priority;
  j.submit_time = submit;
  return j;
}

std::vector<std::int64_t> ids(const std::vector<JobQueue::Start>& s) {
  std::vector<std::int64_t> out;
  for (auto& x : s) out.push_back(x.id);
  return out;
}

TEST(JobQueue, PriorityThenSubmitTimeAndStrictHead) {
  ResourcePool pool(machine(4));
  JobQueue q(std::make_unique<PriorityThenSubmitOrder>());
  q.push(job(1, 2, 0, 1));
  q.push(job(2, 3, 5, 2));  // higher priority: first
  q.push(job(3, 1, 0, 3));
  // Job 2 (3 cpus) starts; job 1 (2 cpus) does not fit in the 1 left and blocks job 3.
  EXPECT_EQ(ids(q.pass(pool, 10)), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(pool.free_cpus(), 1);
  EXPECT_EQ(q.size(), 2u);
}

TEST(JobQueue, NeverAllocatesMoreThanExists) {
  ResourcePool pool(machine(3, 10, 1));
  JobQueue q(std::make_unique<PriorityThenSubmitOrder>());
  for (int i = 1; i <= 5; ++i) {
    auto j = job(i, 1);
    j.mem_bytes = 4;
    j.gpus = i == 1 ? 1 : 0;
    q.push(j);
  }
  auto s = q.pass(pool, 10);
  EXPECT_EQ(s.size(), 2u);  // memory 10 fits two jobs of 4
  EXPECT_EQ(s[0].alloc.gpus, (std::vector<int>{0}));
  EXPECT_NE(s[0].alloc.cpus, s[1].alloc.cpus);
  pool.release(s[0].alloc);
  EXPECT_EQ(q.pass(pool, 10).size(), 1u);
}

TEST(JobQueue, ArrayThrottleAndJobLimit) {
  ResourcePool pool(machine(100));
  JobQueue q(std::make_unique<PriorityThenSubmitOrder>());
  for (int i = 1; i <= 10; ++i) {
    auto j = job(i, 1);
    j.array_job_id = 1;
    j.array_max_running = 3;
    q.push(j);
  }
  EXPECT_EQ(ids(q.pass(pool, 100)), (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_TRUE(q.pass(pool, 100).empty());
  q.element_ended(1);
  EXPECT_EQ(ids(q.pass(pool, 100)), (std::vector<std::int64_t>{4}));
  q.element_ended(1);
  q.element_ended(1);
  EXPECT_EQ(ids(q.pass(pool, 1)), (std::vector<std::int64_t>{5}));  // slot limit 1
  EXPECT_TRUE(q.remove(10));
  EXPECT_FALSE(q.remove(10));
}

}  // namespace
}  // namespace yard
