#include "sched/backfill.h"

#include <gtest/gtest.h>

#include <vector>

namespace yard::sched {
namespace {

std::vector<Decision> submit(Backfiller& b, JobId id, Procs procs, Time est, Time now) {
  std::vector<Decision> out;
  b.submit({id, procs, est}, now, out);
  return out;
}

bool has(const std::vector<Decision>& out, JobId id, Time start) {
  for (const Decision& d : out) {
    if (d.id == id && d.start == start) return true;
  }
  return false;
}

// Machine of 10: A (8 procs) runs; B (9) waits for it; C (2, short) and D (2, long) arrive.
void blocked_head(Backfiller& b) {
  ASSERT_TRUE(has(submit(b, 1, 8, 100, 0), 1, 0));
  EXPECT_TRUE(submit(b, 2, 9, 100, 1).empty() || b.policy().unlimited());
}

TEST(Backfill, StrictOrderNeverPassesTheHead) {
  Backfiller b(10, Policy::fcfs());
  blocked_head(b);
  EXPECT_TRUE(submit(b, 3, 2, 50, 2).empty());
  EXPECT_EQ(b.waiting(), 2u);
}

TEST(Backfill, EasyStartsAJobThatEndsBeforeTheReservation) {
  Backfiller b(10, Policy::easy());
  blocked_head(b);
  EXPECT_TRUE(submit(b, 4, 2, 200, 2).empty());  // would delay the head
  EXPECT_TRUE(has(submit(b, 3, 2, 50, 3), 3, 3));
  std::vector<Decision> out;
  b.finish(0, 100, 8, 40, out);  // A ends early; the head fits once C ends
  EXPECT_TRUE(out.empty());
  b.finish(3, 50, 2, 53, out);
  EXPECT_TRUE(has(out, 2, 53));
}

TEST(Backfill, ConservativeReservesOnArrivalAndMovesOnlyEarlier) {
  Backfiller b(10, Policy::conservative());
  ASSERT_TRUE(has(submit(b, 1, 8, 100, 0), 1, 0));
  EXPECT_TRUE(has(submit(b, 2, 9, 100, 1), 2, 100));
  EXPECT_TRUE(has(submit(b, 3, 2, 50, 2), 3, 2));
  EXPECT_TRUE(has(submit(b, 4, 2, 200, 3), 4, 200));
  std::vector<Decision> out;
  b.finish(0, 100, 8, 40, out);
  EXPECT_TRUE(has(out, 2, 52));  // waits for C only
  EXPECT_FALSE(has(out, 4, 40));
  EXPECT_EQ(b.waiting(), 2u);
}

// One processor frees up; E (70 s) and F (10 s) both fit before the head's reservation.
std::vector<Decision> one_free_slot(Policy policy) {
  Backfiller b(10, policy);
  submit(b, 1, 9, 100, 0);
  submit(b, 2, 1, 50, 0);
  submit(b, 3, 10, 100, 1);
  submit(b, 4, 1, 70, 2);
  submit(b, 5, 1, 10, 3);
  std::vector<Decision> out;
  b.finish(0, 50, 1, 20, out);
  return out;
}

TEST(Backfill, EasyTriesCandidatesInQueueOrder) {
  auto out = one_free_slot(Policy::easy());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(has(out, 4, 20));
}

TEST(Backfill, SjbfTriesTheShortestEstimateFirst) {
  auto out = one_free_slot(Policy::sjbf());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(has(out, 5, 20));
}

TEST(Backfill, AJobWiderThanTheMachineNeverStartsNorBlocks) {
  for (Policy policy : {Policy::fcfs(), Policy::easy(), Policy::conservative()}) {
    Backfiller b(10, policy);
    EXPECT_TRUE(submit(b, 1, 11, 100, 0).empty());
    EXPECT_TRUE(has(submit(b, 2, 10, 100, 1), 2, 1));
    EXPECT_EQ(b.waiting(), 1u);
  }
}

TEST(Backfill, EnqueueThenOnePass) {
  for (Policy policy : {Policy::easy(), Policy::conservative()}) {
    Backfiller b(10, policy);
    b.enqueue({1, 6, 100});
    b.enqueue({2, 6, 100});
    b.enqueue({3, 4, 50});
    std::vector<Decision> out;
    b.schedule(0, out);
    EXPECT_TRUE(has(out, 1, 0));
    EXPECT_TRUE(has(out, 3, 0));
    EXPECT_EQ(has(out, 2, 100), policy.unlimited());  // a reservation is a decision too
  }
}

TEST(Backfill, PolicyNames) {
  EXPECT_EQ(policy_by_name("easy")->depth, 1);
  EXPECT_EQ(policy_by_name("fcfs")->depth, 0);
  EXPECT_TRUE(policy_by_name("conservative")->unlimited());
  EXPECT_EQ(policy_by_name("sjbf")->order, BackfillOrder::kShortestEstimate);
  EXPECT_FALSE(policy_by_name("lifo").has_value());
}

}  // namespace
}  // namespace yard::sched
