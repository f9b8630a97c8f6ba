#include "core/checked.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace yard {
namespace {

TEST(Checked, OverflowIsReportedNotWrapped) {
  EXPECT_EQ(checked_mul<std::int64_t>(2147483647, 2), 4294967294LL);
  EXPECT_FALSE(checked_mul<std::int32_t>(2147483647, 2).has_value());
  EXPECT_FALSE(checked_mul<std::uint64_t>(1ULL << 40, 1ULL << 30).has_value());
  EXPECT_FALSE(checked_add<std::int64_t>(INT64_MAX, 1).has_value());
  EXPECT_EQ(checked_add<std::uint64_t>(1, 2), 3u);
  EXPECT_EQ(saturate(checked_add<std::uint64_t>(UINT64_MAX, 1)), UINT64_MAX);
}

TEST(Checked, CeilDivDoesNotWrapNearTheTop) {
  EXPECT_EQ(ceil_div<std::uint64_t>(0, 1024), 0u);
  EXPECT_EQ(ceil_div<std::uint64_t>(1, 1024), 1u);
  EXPECT_EQ(ceil_div<std::uint64_t>(2048, 1024), 2u);
  EXPECT_EQ(ceil_div<std::uint64_t>(UINT64_MAX, 1ULL << 20), 1ULL << 44);
}

}  // namespace
}  // namespace yard
