// The status files a carrier writes for its steps (backends/series_steps.h), read as the
// daemon reads them: whole, cut short mid-line, skipped, or damaged.
#include "backends/series_steps.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <memory>

#include "store/store.h"

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

// The backend itself, on a store of its own, its status files written here as a carrier
// would write them.
namespace yard {
namespace {

class SeriesStepsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("yard-series-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto st = Store::open((dir_ / "store.db").string());
    ASSERT_TRUE(st) << st.error();
    store_ = std::make_unique<Store>(std::move(*st));
    series_ = std::make_unique<SeriesSteps>(*store_);
    JobSpec carrier = spec("carrier");
    carrier.backend = "local";
    carrier_ = store_->insert_jobs(carrier, now_)->front();
    for (int k = 0; k < 3; ++k) steps_.push_back(*series_->take(spec("step"), now_));
    ASSERT_TRUE(series_->carried_by(steps_, carrier_, dir_.string()));
    ASSERT_TRUE(store_->transition(carrier_, JobState::Running, {}, now_));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  JobSpec spec(const std::string& name) {
    JobSpec s;
    s.name = name;
    s.argv = {"/bin/true"};
    s.workdir = dir_.string();
    return s;
  }
  void status(std::int64_t step, const std::string& text) {
    std::ofstream(dir_ / std::to_string(step)) << text;
  }
  std::string read(std::int64_t step) {
    std::ifstream in(dir_ / std::to_string(step));
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  JobState state(std::int64_t id) { return (**store_->job(id)).state; }
  std::filesystem::path dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<SeriesSteps> series_;
  std::int64_t carrier_ = 0;
  std::vector<std::int64_t> steps_;
  double now_ = 1000;
};

TEST_F(SeriesStepsTest, EachStepTakesItsStateAndExitFromItsStatusFile) {
  status(steps_[0], "start 1000.5\nend 0 1001\n");
  status(steps_[1], "start 1001\nend 3 1002\n");
  status(steps_[2], "start 1002\n");
  series_->step(now_ += 1, true);
  EXPECT_EQ(state(steps_[0]), JobState::Completed);
  EXPECT_EQ(state(steps_[1]), JobState::Failed);
  EXPECT_EQ((**store_->job(steps_[1])).exit_code, 3);
  EXPECT_EQ(state(steps_[2]), JobState::Running);
  // The carrier runs out of time: the running step ends with its cause.
  ASSERT_TRUE(store_->transition(carrier_, JobState::Timeout, {}, now_));
  series_->step(now_ += 1, true);
  EXPECT_EQ(state(steps_[2]), JobState::Timeout);
}

TEST_F(SeriesStepsTest, ACancelSkipsAWaitingStepStopsARunningOneAndSparesAnEndedOne) {
  status(steps_[0], "start 1000.5\nend 0 1001\n");  // ended, not read yet
  auto acted = series_->cancel({steps_[0]}, now_);
  ASSERT_TRUE(acted);
  EXPECT_TRUE(acted->empty());
  EXPECT_TRUE(series_->take_carriers_to_cancel().empty()) << "an ended step does not stop its carrier";
  acted = series_->cancel({steps_[2]}, now_);  // waiting its turn: skipped
  ASSERT_TRUE(acted);
  EXPECT_EQ(*acted, std::vector<std::int64_t>{steps_[2]});
  EXPECT_EQ(state(steps_[2]), JobState::Cancelled);
  EXPECT_TRUE(parse_series_status(read(steps_[2])).skipped);
  EXPECT_TRUE(series_->take_carriers_to_cancel().empty());
  status(steps_[1], "start 1001\n");  // running
  acted = series_->cancel({steps_[1]}, now_);
  ASSERT_TRUE(acted);
  EXPECT_EQ(*acted, std::vector<std::int64_t>{steps_[1]});
  EXPECT_EQ(series_->take_carriers_to_cancel(), std::vector<std::int64_t>{carrier_});
}

TEST_F(SeriesStepsTest, ASkipWrittenByADaemonThatStoppedBeforeItsCommitIsEndedAfterARestart) {
  status(steps_[0], "skip\n");  // the file made, the CANCELLED never committed
  SeriesSteps restarted(*store_);
  ASSERT_TRUE(restarted.recover(now_));
  restarted.step(now_ += 1, true);
  EXPECT_EQ(state(steps_[0]), JobState::Cancelled);
  EXPECT_EQ(state(steps_[1]), JobState::Pending);  // not reached yet
  // Its carrier ends: the steps it never reached are cancelled, not left pending.
  ASSERT_TRUE(store_->transition(carrier_, JobState::Completed, {}, now_));
  restarted.step(now_ += 1, true);
  EXPECT_EQ(state(steps_[1]), JobState::Cancelled);
  EXPECT_EQ(state(steps_[2]), JobState::Cancelled);
}

}  // namespace
}  // namespace yard
