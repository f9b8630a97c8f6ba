#include "core/dependency.h"

#include <gtest/gtest.h>

namespace yard {

TEST(Dependency, ParsesSlurmSyntax) {
  auto d = parse_dependencies("afterok:12:13,afterany:14");
  ASSERT_TRUE(d.ok()) << d.error();
  ASSERT_EQ(d->size(), 3u);
  EXPECT_EQ((*d)[0], (Dependency{DependencyKind::AfterOk, 12}));
  EXPECT_EQ((*d)[2], (Dependency{DependencyKind::AfterAny, 14}));
}

TEST(Dependency, RejectsBadInput) {
  EXPECT_FALSE(parse_dependencies("after:1").ok());
  EXPECT_FALSE(parse_dependencies("afterok").ok());
  EXPECT_FALSE(parse_dependencies("afterok:x").ok());
  EXPECT_FALSE(parse_dependencies("afterok:1?afterany:2").ok());
}

TEST(Dependency, Verdicts) {
  EXPECT_EQ(evaluate(DependencyKind::AfterOk, JobState::Running), DependencyVerdict::Waiting);
  EXPECT_EQ(evaluate(DependencyKind::AfterOk, JobState::Completed), DependencyVerdict::Satisfied);
  EXPECT_EQ(evaluate(DependencyKind::AfterOk, JobState::Failed), DependencyVerdict::NeverSatisfied);
  EXPECT_EQ(evaluate(DependencyKind::AfterNotOk, JobState::Timeout), DependencyVerdict::Satisfied);
  EXPECT_EQ(evaluate(DependencyKind::AfterNotOk, JobState::Completed), DependencyVerdict::NeverSatisfied);
  EXPECT_EQ(evaluate(DependencyKind::AfterAny, JobState::Cancelled), DependencyVerdict::Satisfied);
}

}  // namespace yard
