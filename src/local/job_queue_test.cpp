#include "local/job_queue.h"

#include <gtest/gtest.h>

#include <vector>

namespace yard {
namespace {

QueuedJob job(std::int64_t id, std::int64_t array_job_id = 0, int max_running = 0) {
  QueuedJob j;
  j.id = id;
  j.array_job_id = array_job_id;
  j.array_max_running = max_running;
  return j;
}

std::vector<std::int64_t> ready(const JobQueue& q) {
  std::vector<std::int64_t> out;
  for (auto& [id, j] : q.ready()) out.push_back(id);
  return out;
}

TEST(JobQueue, ReadyStartedAndRemoved) {
  JobQueue q;
  q.push(job(2));
  q.push(job(1));
  q.push(job(1));  // pushing twice changes nothing
  EXPECT_EQ(ready(q), (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(q.size(), 2u);
  q.started(1);
  EXPECT_FALSE(q.contains(1));
  EXPECT_TRUE(q.remove(2));
  EXPECT_FALSE(q.remove(2));
  EXPECT_EQ(q.size(), 0u);
}

TEST(JobQueue, ArrayThrottleHoldsBackElements) {
  JobQueue q;
  for (int i = 1; i <= 10; ++i) q.push(job(i, 1, 3));
  EXPECT_EQ(ready(q), (std::vector<std::int64_t>{1, 2, 3}));
  for (int i = 1; i <= 3; ++i) q.started(i);
  EXPECT_TRUE(q.ready().empty());
  q.element_ended(1);
  EXPECT_EQ(ready(q), (std::vector<std::int64_t>{4}));
  // A ready element removed (cancel) lets the next one through.
  EXPECT_TRUE(q.remove(4));
  EXPECT_EQ(ready(q), (std::vector<std::int64_t>{5}));
  // A backlogged one removed is simply gone.
  EXPECT_TRUE(q.remove(10));
  EXPECT_EQ(q.size(), 5u);  // 5..9
}

TEST(JobQueue, RecoveredRunningElementsCountAgainstTheThrottle) {
  JobQueue q;
  q.element_running(7, 2);
  q.element_running(7, 2);
  q.push(job(9, 7, 2));
  EXPECT_TRUE(q.ready().empty());
  q.element_ended(7);
  EXPECT_EQ(ready(q), (std::vector<std::int64_t>{9}));
}

}  // namespace
}  // namespace yard
