#include "sched/profile.h"
#include "sched/floors.h"

#include <gtest/gtest.h>

namespace yard::sched {
namespace {

TEST(Profile, EmptyMachineIsFreeEverywhere) {
  Profile p(10);
  EXPECT_EQ(p.free_at(0), 10);
  EXPECT_EQ(p.free_at(1'000'000), 10);
  EXPECT_EQ(p.earliest_start(5, 10, 100), 5);
  EXPECT_EQ(p.earliest_start(5, 11, 100), kNever);
}

TEST(Profile, AllocateAndReleaseRestoreTheTimeline) {
  Profile p(10);
  p.allocate(0, 100, 4);
  p.allocate(50, 100, 3);
  EXPECT_EQ(p.free_at(0), 6);
  EXPECT_EQ(p.free_at(50), 3);
  EXPECT_EQ(p.free_at(99), 3);
  EXPECT_EQ(p.free_at(100), 7);
  EXPECT_EQ(p.free_at(150), 10);
  EXPECT_EQ(p.min_free(0, 200), 3);
  EXPECT_EQ(p.min_free(100, 50), 7);
  p.release(50, 100, 3);
  p.release(0, 100, 4);
  EXPECT_EQ(p.breakpoints(), 1u);
}

TEST(Profile, EarliestStartNeedsTheWholeDuration) {
  Profile p(10);
  p.allocate(0, 100, 8);   // 2 free until 100
  p.allocate(120, 50, 9);  // 1 free over [120, 170)
  EXPECT_EQ(p.earliest_start(0, 2, 500), 170);  // blocked over [120, 170)
  EXPECT_EQ(p.earliest_start(0, 2, 120), 0);
  EXPECT_EQ(p.earliest_start(0, 5, 20), 100);  // the hole [100, 120) is exactly 20
  EXPECT_EQ(p.earliest_start(0, 5, 21), 170);
  EXPECT_EQ(p.earliest_start(10, 1, 1000), 10);
}

TEST(Profile, EarliestStartBeforeALimit) {
  Profile p(10);
  p.allocate(0, 100, 8);
  // A job holding [100, 150) with 5 processors could not start before 100.
  p.allocate(100, 50, 5);
  EXPECT_EQ(p.earliest_start_before(0, 5, 50, 100), 100);
  // With 2 processors it fits at once, its window reaching into its own hold.
  EXPECT_EQ(p.earliest_start_before(0, 2, 150, 100), 0);
  // A hole before the limit long enough for the whole job.
  Profile q(10);
  q.allocate(0, 10, 10);
  q.allocate(20, 10, 10);
  q.allocate(40, 5, 3);
  EXPECT_EQ(q.earliest_start_before(0, 3, 10, 40), 10);
  EXPECT_EQ(q.earliest_start_before(0, 3, 15, 40), 30);
}

TEST(Profile, ForgetBeforeKeepsTheCurrentValue) {
  Profile p(10);
  p.allocate(0, 10, 1);
  p.allocate(20, 10, 2);
  p.allocate(40, 10, 3);
  p.forget_before(25);
  EXPECT_EQ(p.free_at(25), 8);
  EXPECT_EQ(p.free_at(30), 10);
  EXPECT_EQ(p.free_at(45), 7);
  EXPECT_EQ(p.breakpoints(), 4u);
}

TEST(Profile, AdjacentEqualSegmentsMerge) {
  Profile p(10);
  p.allocate(0, 10, 2);
  p.allocate(10, 10, 2);
  EXPECT_EQ(p.breakpoints(), 3u);  // -inf, 0, 20
  p.release(0, 20, 2);
  EXPECT_EQ(p.breakpoints(), 1u);
}

TEST(Floors, AnswerWhatCanStartNowAndFollowAllocations) {
  Profile p(10);
  p.allocate(0, 100, 4);   // 6 free until 100
  p.allocate(50, 100, 5);  // 1 free over [50, 100), 5 over [100, 150)
  Floors f;
  f.build(p, 10);
  EXPECT_EQ(f.free_now(), 6);
  EXPECT_EQ(f.min_free(40), 6);  // [10, 50)
  EXPECT_EQ(f.min_free(41), 1);
  EXPECT_EQ(f.min_free(1000), 1);
  // Start 1 processor over [10, 30): every window loses it until 30, the rest are capped.
  p.allocate(10, 20, 1);
  f.take(1, 20);
  Floors rebuilt;
  rebuilt.build(p, 10);
  for (Time d : {1, 19, 20, 21, 39, 40, 41, 139, 140, 141, 1000}) {
    EXPECT_EQ(f.min_free(d), rebuilt.min_free(d)) << d;
  }
  // A long one: windows beyond its end see at most what it leaves.
  p.allocate(10, 45, 1);
  f.take(1, 45);
  rebuilt.build(p, 10);
  for (Time d : {1, 39, 40, 41, 44, 45, 46, 139, 140, 141, 1000}) {
    EXPECT_EQ(f.min_free(d), rebuilt.min_free(d)) << d;
  }
}

}  // namespace
}  // namespace yard::sched
