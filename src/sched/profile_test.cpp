#include "sched/profile.h"
#include "sched/floors.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

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

// Earliest starts on long profiles (many blocks of the skip summaries), changed between
// queries by allocations, releases, bulk allocations and forgetting the past, against a
// walk over free_at at every breakpoint.
TEST(Profile, EarliestStartMatchesAWalkOnLongChangingProfiles) {
  std::mt19937_64 rng(7);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  for (int round = 0; round < 20; ++round) {
    const Procs total = pick(1, 64);
    Profile profile(total);
    std::vector<Profile::Hold> bulk;
    for (int k = 0; k < 100; ++k) {
      bulk.push_back({pick(0, 2000), pick(1, 300), pick(1, std::max<Procs>(1, total / 8))});
    }
    profile.allocate_all(bulk);
    std::vector<Profile::Hold> held(bulk.begin(), bulk.end());
    std::vector<Time> times;
    Time now = 0;
    for (int step = 0; step < 200; ++step) {
      const auto op = pick(0, 9);
      if (op < 5) {
        const Time start = now + pick(0, 2500);
        const Time duration = pick(1, 400);
        const Procs procs = pick(1, total);
        if (profile.min_free(start, duration) >= procs) {
          profile.allocate(start, duration, procs);
          held.push_back({start, duration, procs});
        }
      } else if (op < 7 && !held.empty()) {
        const auto k = static_cast<std::size_t>(pick(0, static_cast<std::int64_t>(held.size()) - 1));
        profile.release(held[k].start, held[k].duration, held[k].procs);
        held.erase(held.begin() + static_cast<std::ptrdiff_t>(k));
      } else if (op == 7) {
        now += pick(0, 50);
        profile.forget_before(now);
      }
      // Reference: candidates are `from` and every hold's start and end after it.
      times.clear();
      for (const auto& h : held) {
        times.push_back(h.start);
        times.push_back(h.start + h.duration);
      }
      for (int q = 0; q < 3; ++q) {
        const Time from = now + pick(0, 2500);
        const Procs procs = pick(1, total + 1);
        const Time duration = pick(1, 600);
        Time want = kNever;
        if (procs <= total) {
          std::vector<Time> candidates = {from};
          for (Time t : times) {
            if (t > from) candidates.push_back(t);
          }
          std::sort(candidates.begin(), candidates.end());
          for (Time t : candidates) {
            if (profile.min_free(t, duration) >= procs) {
              want = t;
              break;
            }
          }
        }
        ASSERT_EQ(profile.earliest_start(from, procs, duration), want)
            << "round " << round << " step " << step << " from " << from << " procs " << procs;
      }
    }
  }
}

}  // namespace
}  // namespace yard::sched
