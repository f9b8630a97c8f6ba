#include "core/retry_policy.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace yard {
namespace {

TEST(RetryPolicy, CoversListedCausesAndListedExitCodesOnly) {
  RetryPolicy p;
  p.times = 2;
  p.on = {JobState::OutOfMemory};
  p.exit_codes = {137};
  EXPECT_TRUE(p.covers(JobState::OutOfMemory, std::nullopt));
  EXPECT_FALSE(p.covers(JobState::Timeout, std::nullopt));
  EXPECT_TRUE(p.covers(JobState::Failed, 137));
  EXPECT_FALSE(p.covers(JobState::Failed, 1));
  EXPECT_FALSE(p.covers(JobState::Failed, std::nullopt));
}

TEST(RetryPolicy, GrowsEachTryUpToItsCapNeverBelowTheFirst) {
  RetryPolicy p;
  p.grow_mem = 2;
  p.grow_time = 1.5;
  p.cap_mem_bytes = 3ull << 30;
  EXPECT_EQ(p.mem_for(1ull << 30, 1), 2ull << 30);
  EXPECT_EQ(p.mem_for(1ull << 30, 2), 3ull << 30);  // 4G capped
  EXPECT_EQ(p.mem_for(0, 3), 0u);                   // no request stays none
  EXPECT_EQ(p.time_for(100, 1), 150);
  EXPECT_EQ(p.time_for(100, 2), 225);
  p.cap_mem_bytes = 1ull << 20;  // a cap below the request: the request
  EXPECT_EQ(p.mem_for(1ull << 30, 1), 1ull << 30);
}

TEST(RetryPolicy, TravelsAsJsonAndRefusesNonsense) {
  RetryPolicy p;
  p.times = 3;
  p.on = {JobState::Timeout, JobState::NodeFail};
  p.exit_codes = {130, 137};
  p.backoff_s = 30;
  p.grow_mem = 2;
  p.cap_time_s = 7200;
  const RetryPolicy back = retry_from_json(retry_to_json(p));
  EXPECT_EQ(back.times, 3);
  EXPECT_EQ(back.on, p.on);
  EXPECT_EQ(back.exit_codes, p.exit_codes);
  EXPECT_EQ(back.backoff_s, 30);
  EXPECT_EQ(back.grow_mem, 2);
  EXPECT_EQ(back.cap_time_s, 7200);
  EXPECT_TRUE(validate(p));
  p.grow_mem = 0.5;
  EXPECT_FALSE(validate(p));
  p.grow_mem = 1;
  p.on = {JobState::Completed};
  EXPECT_FALSE(validate(p));
  EXPECT_FALSE(retry_cause("HUNGRY"));
  EXPECT_EQ(*retry_cause("OUT_OF_MEMORY"), JobState::OutOfMemory);
}

}  // namespace
}  // namespace yard
