// The status files a carrier writes for its steps (backends/series_steps.h), read as the
// daemon reads them: whole, cut short mid-line, skipped, or damaged.
#include "backends/series_steps.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

TEST(SeriesStatus, AStartAndAnEndAreReadWithTheirTimesAndStatus) {
  const auto s = parse_series_status("start 100.5\nend 3 101.25\n");
  EXPECT_FALSE(s.skipped);
  ASSERT_TRUE(s.start && s.status && s.end);
  EXPECT_DOUBLE_EQ(*s.start, 100.5);
  EXPECT_EQ(*s.status, 3);
  EXPECT_DOUBLE_EQ(*s.end, 101.25);
}

TEST(SeriesStatus, ALineCutShortIsNotAnEndYet) {
  auto s = parse_series_status("start 100.5\nen");
  EXPECT_TRUE(s.start);
  EXPECT_FALSE(s.status);
  s = parse_series_status("start 100.5\nend ");
  EXPECT_FALSE(s.status);
  s = parse_series_status("start");
  EXPECT_FALSE(s.start);
}

TEST(SeriesStatus, ASkippedStepAndDamagedTextAreToldApart) {
  EXPECT_TRUE(parse_series_status("skip\n").skipped);
  const auto s = parse_series_status("\x01\xff garbage 1e999 end x\n");
  EXPECT_FALSE(s.skipped);
  EXPECT_FALSE(s.status);
}

TEST(SeriesStatus, TheNativeIdKeepsTheCarrierAndTheFile) {
  EXPECT_EQ(series_native_id(12, "/run/.series/7"), "12 /run/.series/7");
}

}  // namespace
}  // namespace yard
