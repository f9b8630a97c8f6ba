// On a scripted scheduler (indirect_testing.h): the throttles shared by every client and
// flow, max_queued (jobs in the scheduler's queue at once) and submit_rate; and a job
// held on a parent or a throttle never keeps the daemon's loop spinning.
#include "backends/indirect_testing.h"

namespace yard {
namespace {

using namespace indirect_testing;  // NOLINT: the bench of this test

using IndirectThrottle = IndirectTest;

TEST_F(IndirectThrottle, MaxQueuedHoldsTheRestUntilAJobLeavesTheQueue) {
  config_.max_queued = 2;
  make_backend();
  std::vector<std::int64_t> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(submit(spec("j" + std::to_string(i))));
  step();
  EXPECT_EQ(posted("fsub"), 2);
  EXPECT_EQ(job(ids[2]).reason, "held by yard: 2 jobs in fake's queue (max_queued in fake.yaml)");
  queue_.answer("10\n");
  queue_.answer("11\n");
  step();
  EXPECT_EQ(posted("fsub"), 0);
  // Held jobs wake the loop once a second, not at once.
  EXPECT_GE(backend_->next_wakeup_s(now_), 0.5);
  // One ends: one more goes.
  now_ += 10;
  step();
  queue_.answer("11|RUNNING|None|x\n");
  step();
  queue_.answer("10|COMPLETED|0|x\n");
  step();
  EXPECT_EQ(job(ids[0]).state, JobState::Completed);
  EXPECT_EQ(posted("fsub"), 1);
  EXPECT_EQ(job(ids[3]).reason, "held by yard: 2 jobs in fake's queue (max_queued in fake.yaml)");
}

TEST_F(IndirectThrottle, SubmitRateSpacesSubmissions) {
  config_.submits_per_second = 1.0 / 60;  // submit_rate: 1/min
  make_backend();
  auto a = submit(spec("a"));
  auto b = submit(spec("b"));
  step();
  EXPECT_EQ(posted("fsub"), 1);
  queue_.answer("10\n");
  step();
  EXPECT_EQ(job(a).native_id, "10");
  EXPECT_EQ(job(b).reason, "held by yard: at most 1 per minute submissions (submit_rate in fake.yaml)");
  EXPECT_GT(backend_->next_wakeup_s(now_), 5);
  now_ += 30;
  step();
  EXPECT_EQ(posted("fsub"), 0);
  now_ += 31;
  step();
  EXPECT_EQ(posted("fsub"), 1);
}

TEST_F(IndirectThrottle, AJobWaitingOnItsParentDoesNotSpinTheLoop) {
  dialect_.after_any_only = true;  // the engine holds afterok children itself
  auto parent = submit(spec("parent"));
  auto after = spec("child");
  after.dependencies = {{DependencyKind::AfterOk, parent}};
  auto child = submit(after);
  step();
  queue_.answer("10\n");
  step();
  EXPECT_NE(job(child).reason.find("waiting for job " + std::to_string(parent)), std::string::npos)
      << job(child).reason;
  EXPECT_GE(backend_->next_wakeup_s(now_), 0.5);
  // Its parent's end submits it in the same step, not a second later.
  now_ += 10;
  step();
  queue_.answer("");
  step();
  queue_.answer("10|COMPLETED|0|x\n");
  step();
  EXPECT_EQ(posted("fsub"), 1);
}

TEST(SubmitRate, ReadsCountsPerSecondMinuteOrHour) {
  EXPECT_DOUBLE_EQ(*parse_rate("2"), 2);
  EXPECT_DOUBLE_EQ(*parse_rate("10/min"), 10.0 / 60);
  EXPECT_DOUBLE_EQ(*parse_rate("100/h"), 100.0 / 3600);
  EXPECT_DOUBLE_EQ(*parse_rate("5/30s"), 5.0 / 30);
  EXPECT_DOUBLE_EQ(*parse_rate("1/2min"), 1.0 / 120);
  for (auto bad : {"", "0", "-1/s", "10/fortnight", "x/min", "10 /min", "5/0s"})
    EXPECT_FALSE(parse_rate(bad)) << bad;
  EXPECT_EQ(format_rate(10.0 / 60), "10 per minute");
  EXPECT_EQ(format_rate(3), "3 per second");
  EXPECT_EQ(format_rate(2.0 / 3600), "2 per hour");
}

}  // namespace
}  // namespace yard
