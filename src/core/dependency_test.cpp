#include "core/dependency.h"

#include <gtest/gtest.h>

namespace yard {

TEST(Dependency, ParsesSlurmSyntax) {
  auto d = parse_dependencies("afterok:12:13,afterany:14");
  ASSERT_TRUE(d.ok()) << d.error();
  ASSERT_EQ(d->size(), 3u);
  EXPECT_EQ((*d)[0], (Dependency{DependencyKind::AfterOk, 12}));
  EXPECT_EQ((*d)[2], (Dependency{DependencyKind::AfterAny, 14}));
  auto more = parse_dependencies("after:5,singleton,aftercorr:7");
  ASSERT_TRUE(more.ok()) << more.error();
  EXPECT_EQ(*more, (std::vector<Dependency>{{DependencyKind::After, 5}, {DependencyKind::Singleton, 0},
                                            {DependencyKind::AfterCorr, 7}}));
}

TEST(Dependency, RejectsBadInput) {
  EXPECT_FALSE(parse_dependencies("after").ok());
  EXPECT_FALSE(parse_dependencies("singleton:3").ok());
  auto delayed = parse_dependencies("after:1+10");
  ASSERT_FALSE(delayed.ok());
  EXPECT_NE(delayed.error().find("'1+10': a delay after the start (+MINUTES) is not supported"), std::string::npos);
  auto burst = parse_dependencies("afterburstbuffer:4");
  ASSERT_FALSE(burst.ok());
  EXPECT_NE(burst.error().find("dependency type 'afterburstbuffer' is not supported"), std::string::npos) << burst.error();
  EXPECT_FALSE(parse_dependencies("afterok").ok());
  EXPECT_FALSE(parse_dependencies("afterok:x").ok());
  EXPECT_FALSE(parse_dependencies("afterok:1?afterany:2").ok());  // '?' only where it is understood
  bool any = false;
  auto either = parse_dependencies("afterok:1?afterany:2:3", &any);
  ASSERT_TRUE(either.ok()) << either.error();
  EXPECT_TRUE(any);
  EXPECT_EQ(either->size(), 3u);
  auto mixed = parse_dependencies("afterok:1?afterany:2,afterok:3", &any);
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.error().find("a list uses one of them"), std::string::npos) << mixed.error();
  ASSERT_TRUE(parse_dependencies("afterok:1,afterany:2", &any).ok());
  EXPECT_FALSE(any);
}

TEST(Dependency, Verdicts) {
  EXPECT_EQ(evaluate(DependencyKind::AfterOk, JobState::Running), DependencyVerdict::Waiting);
  EXPECT_EQ(evaluate(DependencyKind::AfterOk, JobState::Completed), DependencyVerdict::Satisfied);
  EXPECT_EQ(evaluate(DependencyKind::AfterOk, JobState::Failed), DependencyVerdict::NeverSatisfied);
  EXPECT_EQ(evaluate(DependencyKind::AfterNotOk, JobState::Timeout), DependencyVerdict::Satisfied);
  EXPECT_EQ(evaluate(DependencyKind::AfterNotOk, JobState::Completed), DependencyVerdict::NeverSatisfied);
  EXPECT_EQ(evaluate(DependencyKind::AfterAny, JobState::Cancelled), DependencyVerdict::Satisfied);
  EXPECT_EQ(evaluate(DependencyKind::After, JobState::Pending), DependencyVerdict::Waiting);
  EXPECT_EQ(evaluate(DependencyKind::After, JobState::Running), DependencyVerdict::Satisfied);  // started
  EXPECT_EQ(evaluate(DependencyKind::After, JobState::Cancelled), DependencyVerdict::Satisfied);  // never will
}

}  // namespace yard
