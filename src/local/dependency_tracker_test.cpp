#include "local/dependency_tracker.h"

#include <gtest/gtest.h>

namespace yard {

using V = std::vector<std::int64_t>;

TEST(DependencyTracker, ReadyWhenAllSatisfiedDoomedWhenOneCannotBe) {
  DependencyTracker t;
  auto v = t.add(10, {{{DependencyKind::AfterOk, 1}, JobState::Running}, {{DependencyKind::AfterAny, 2}, JobState::Pending}});
  EXPECT_TRUE(v.ready.empty());
  EXPECT_TRUE(t.waiting(10));
  EXPECT_TRUE(t.parent_ended(1, JobState::Completed).ready.empty());
  EXPECT_EQ(t.parent_ended(2, JobState::Failed).ready, V{10});

  t.add(11, {{{DependencyKind::AfterOk, 3}, JobState::Running}});
  EXPECT_EQ(t.parent_ended(3, JobState::Failed).doomed, V{11});
  EXPECT_EQ(t.size(), 0u);
}

TEST(DependencyTracker, AfterIsMetByTheStartAndOnlyOnce) {
  DependencyTracker t;
  t.add(20, {{{DependencyKind::After, 1}, JobState::Pending}, {{DependencyKind::AfterOk, 1}, JobState::Pending}});
  t.add(21, {{{DependencyKind::After, 1}, JobState::Pending}});
  EXPECT_EQ(t.parent_started(1).ready, V{21});  // 20 still waits for its afterok
  EXPECT_TRUE(t.parent_started(1).ready.empty());
  EXPECT_EQ(t.parent_ended(1, JobState::Completed).ready, V{20});
  EXPECT_EQ(t.add(22, {{{DependencyKind::After, 1}, JobState::Running}}).ready, V{22});
  EXPECT_EQ(t.size(), 0u);
}

TEST(DependencyTracker, AnyOneSufficesAndOnlyAllFailingDooms) {
  DependencyTracker t;
  t.add(30, {{{DependencyKind::AfterOk, 1}, JobState::Pending}, {{DependencyKind::AfterOk, 2}, JobState::Pending}}, true);
  EXPECT_TRUE(t.parent_ended(1, JobState::Failed).doomed.empty());  // the other may still do
  EXPECT_EQ(t.parent_ended(2, JobState::Completed).ready, V{30});
  t.add(31, {{{DependencyKind::AfterOk, 3}, JobState::Pending}, {{DependencyKind::After, 4}, JobState::Pending}}, true);
  EXPECT_EQ(t.parent_started(4).ready, V{31});
  EXPECT_TRUE(t.parent_ended(3, JobState::Completed).ready.empty());  // decided already
  t.add(32, {{{DependencyKind::AfterOk, 5}, JobState::Pending}, {{DependencyKind::AfterNotOk, 6}, JobState::Pending}}, true);
  EXPECT_TRUE(t.parent_ended(5, JobState::Failed).doomed.empty());
  EXPECT_EQ(t.parent_ended(6, JobState::Completed).doomed, V{32});
  EXPECT_EQ(t.add(33, {{{DependencyKind::AfterOk, 7}, JobState::Failed}, {{DependencyKind::AfterOk, 8}, JobState::Completed}}, true).ready,
            V{33});
  EXPECT_EQ(t.add(34, {{{DependencyKind::AfterOk, 7}, JobState::Failed}, {{DependencyKind::AfterOk, 9}, JobState::Failed}}, true).doomed,
            V{34});
  EXPECT_EQ(t.size(), 0u);
}

TEST(DependencyTracker, ImmediateVerdicts) {
  DependencyTracker t;
  EXPECT_EQ(t.add(5, {{{DependencyKind::AfterOk, 1}, JobState::Completed}}).ready, V{5});
  EXPECT_EQ(t.add(6, {{{DependencyKind::AfterNotOk, 1}, JobState::Completed}}).doomed, V{6});
  EXPECT_EQ(t.add(7, {}).ready, V{7});
}

}  // namespace yard
