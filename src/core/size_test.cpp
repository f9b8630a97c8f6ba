#include "core/size.h"

#include <gtest/gtest.h>

namespace yard {

TEST(MemorySize, UnitsAndDefaultMegabytes) {
  EXPECT_EQ(*parse_memory_size("100"), 100ULL << 20);
  EXPECT_EQ(*parse_memory_size("64K"), 64ULL << 10);
  EXPECT_EQ(*parse_memory_size("500M"), 500ULL << 20);
  EXPECT_EQ(*parse_memory_size("4G"), 4ULL << 30);
  EXPECT_EQ(*parse_memory_size("4gb"), 4ULL << 30);
  EXPECT_EQ(*parse_memory_size("2T"), 2ULL << 40);
  EXPECT_EQ(*parse_memory_size("1GiB"), 1ULL << 30);
}

TEST(MemorySize, RejectsUnknownUnitNamingIt) {
  auto r = parse_memory_size("12XB");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("12XB"), std::string::npos);
  EXPECT_NE(r.error().find("K, M, G or T"), std::string::npos);
  EXPECT_FALSE(parse_memory_size("G").ok());
  EXPECT_FALSE(parse_memory_size("-1G").ok());
  EXPECT_FALSE(parse_memory_size("99999999999T").ok());
}

TEST(MemorySize, Formats) {
  EXPECT_EQ(format_bytes(4ULL << 30), "4G");
  EXPECT_EQ(format_bytes(1536ULL << 20), "1.5G");
}

}  // namespace yard
