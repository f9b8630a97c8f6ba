#include "core/array_spec.h"

#include <gtest/gtest.h>

namespace yard {

TEST(ArraySpec, RangesStepsListsAndThrottle) {
  auto a = parse_array_spec("1-1000%50");
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_EQ(a->indices.size(), 1000u);
  EXPECT_EQ(a->indices.front(), 1);
  EXPECT_EQ(a->max_running, 50);
  auto b = parse_array_spec("0,3,5-9:2");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->indices, (std::vector<std::int64_t>{0, 3, 5, 7, 9}));
  EXPECT_EQ(b->max_running, 0);
}

TEST(ArraySpec, RejectsBadInput) {
  EXPECT_FALSE(parse_array_spec("").ok());
  EXPECT_FALSE(parse_array_spec("5-1").ok());
  EXPECT_FALSE(parse_array_spec("1-10%0").ok());
  EXPECT_FALSE(parse_array_spec("a-b").ok());
  EXPECT_FALSE(parse_array_spec("1-10:0").ok());
  EXPECT_FALSE(parse_array_spec("0-99999999999").ok());
}

TEST(ArraySpec, IndicesAtTheTopOfTheIntegersEndTheRange) {
  // Found by the fuzzer: `i += step` past the largest index overflowed and never ended.
  auto a = parse_array_spec("9223372036854775807", 10);
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->indices, std::vector<std::int64_t>{9223372036854775807});
  auto b = parse_array_spec("9223372036854775805-9223372036854775807:2", 10);
  ASSERT_TRUE(b) << b.error();
  EXPECT_EQ(b->indices, (std::vector<std::int64_t>{9223372036854775805, 9223372036854775807}));
  // The whole range of the integers is one element more than fits in one: refused.
  EXPECT_FALSE(parse_array_spec("0-9223372036854775807", 10).ok());
}

}  // namespace yard
