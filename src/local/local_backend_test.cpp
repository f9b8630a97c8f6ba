// LocalBackend's own logic on a fake clock and a fake job runner: what it plans, hands
// off, revokes and records happens at the times the clock says, with no process started
// and no waiting.
#include "local/local_backend.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/array_spec.h"
#include "core/clock.h"

namespace yard {
namespace {

namespace fs = std::filesystem;

// Takes every job it is given; the test reports their ends.
struct FakeRunner final : JobRunner {
  struct Launch {
    std::int64_t id, after;
  };
  std::vector<Launch> launched;
  mutable std::vector<std::pair<std::int64_t, int>> signals;
  Status launch(std::int64_t id, const LaunchPlan&, int, std::int64_t after) override {
    launched.push_back({id, after});
    return {};
  }
  bool signal_job(std::int64_t id, int sig) const override {
    signals.emplace_back(id, sig);
    return true;
  }
};

class LocalBackendOnAFakeClock : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("yard-local-backend-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto s = Store::open((dir_ / "store.db").string());
    ASSERT_TRUE(s) << s.error();
    store_.emplace(std::move(*s));
  }
  void TearDown() override {
    backend_.reset();
    store_.reset();
    fs::remove_all(dir_);
  }

  LocalBackend& open(int cpus, double handoff_wait_s) {
    Machine m;
    m.cpus = cpus;
    m.mem_bytes = std::uint64_t{1} << 34;
    m.handoff_wait_s = handoff_wait_s;
    backend_ = std::make_unique<LocalBackend>(*store_, m, dir_.string(), "me", clock_);
    backend_->use_host(&runner_);
    EXPECT_TRUE(backend_->recover());
    return *backend_;
  }

  std::vector<std::int64_t> submit(int cpus, const std::string& array = "", const std::string& account = "") {
    JobSpec spec;
    spec.argv = {"/bin/true"};
    spec.workdir = dir_.string();
    spec.res.cpus_per_task = cpus;
    spec.account = account;
    if (!array.empty()) spec.array = *parse_array_spec(array);
    auto tx = store_->transaction();
    auto ids = backend_->submit(std::move(spec));
    EXPECT_TRUE(ids) << ids.error();
    EXPECT_TRUE(tx.commit());
    return ids ? *ids : std::vector<std::int64_t>{};
  }

  // One pass of the daemon's loop: time-driven work, planning, commit, launch.
  void step() {
    auto tx = store_->transaction();
    backend_->tick(clock_.wall());
    backend_->plan_starts();
    ASSERT_TRUE(tx.commit());
    backend_->launch();
  }

  void report_end(std::int64_t id, double end_time) {
    Ended e;
    e.job_id = id;
    e.record.job_id = id;
    e.record.supervisor_pid = 1;
    e.record.job_pid = 1;
    RunOutcome o;
    o.state = JobState::Completed;
    o.end_time = end_time;
    e.record.outcome = o;
    auto tx = store_->transaction();
    ASSERT_TRUE(backend_->job_ended(e));
    ASSERT_TRUE(tx.commit());
  }

  JobRecord job(std::int64_t id) {
    auto r = store_->job(id);
    EXPECT_TRUE(r && r->has_value());
    return r && r->has_value() ? **r : JobRecord{};
  }

  fs::path dir_;
  FakeClock clock_;
  FakeRunner runner_;
  std::optional<Store> store_;
  std::unique_ptr<LocalBackend> backend_;
};

TEST_F(LocalBackendOnAFakeClock, TimesRecordedAndUsageChargedAreTheClocks) {
  open(4, 0);
  const double t0 = clock_.wall();
  const auto ids = submit(2, "", "physics");
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_DOUBLE_EQ(job(ids[0]).submit_time, t0);

  clock_.advance(30);
  step();
  ASSERT_EQ(runner_.launched.size(), 1u);
  EXPECT_EQ(job(ids[0]).state, JobState::Running);
  EXPECT_DOUBLE_EQ(job(ids[0]).start_time.value_or(0), t0 + 30);

  clock_.advance(100);
  report_end(ids[0], clock_.wall());
  const JobRecord done = job(ids[0]);
  EXPECT_EQ(done.state, JobState::Completed);
  EXPECT_DOUBLE_EQ(done.end_time.value_or(0), t0 + 130);
  auto usage = store_->usage();
  ASSERT_TRUE(usage);
  ASSERT_EQ(usage->size(), 1u);
  EXPECT_EQ((*usage)[0].account, "physics");
  EXPECT_DOUBLE_EQ((*usage)[0].core_seconds, 2 * 100.0);  // two CPUs for 100 s of the clock
}

TEST_F(LocalBackendOnAFakeClock, AHandOffIsRevokedOnlyOnceItHasWaitedItsTime) {
  open(1, 5);
  const auto ids = submit(1, "0-2");
  ASSERT_EQ(ids.size(), 3u);
  step();
  // The first element runs; the second waits in the host behind it, on its CPU.
  ASSERT_EQ(runner_.launched.size(), 2u);
  EXPECT_EQ(runner_.launched[0].after, 0);
  EXPECT_EQ(runner_.launched[1].after, runner_.launched[0].id);
  EXPECT_DOUBLE_EQ(backend_->next_wakeup_s(clock_.wall()), 5);

  clock_.advance(4.9);
  step();
  EXPECT_TRUE(runner_.signals.empty());
  EXPECT_NEAR(backend_->next_wakeup_s(clock_.wall()), 0.1, 1e-6);

  clock_.advance(0.2);
  step();
  ASSERT_EQ(runner_.signals.size(), 1u);
  EXPECT_EQ(runner_.signals[0].first, runner_.launched[1].id);
  EXPECT_EQ(runner_.signals[0].second, revoke_signal());
  // Revoked: nothing more is due on the clock for it.
  EXPECT_DOUBLE_EQ(backend_->next_wakeup_s(clock_.wall()), 3600);
}

TEST_F(LocalBackendOnAFakeClock, AHandOffsWaitStartsAgainWhenItsPredecessorChanges) {
  open(1, 5);
  const auto ids = submit(1, "0-2");
  step();
  ASSERT_EQ(runner_.launched.size(), 2u);
  const std::int64_t first = runner_.launched[0].id, second = runner_.launched[1].id;

  // The first ends after 4 s: the second has its CPU (the host started it), and the third
  // is handed behind it, with a wait of its own from now.
  clock_.advance(4);
  report_end(first, clock_.wall());
  step();
  ASSERT_EQ(runner_.launched.size(), 3u);
  EXPECT_EQ(runner_.launched[2].after, second);
  clock_.advance(4);
  step();
  EXPECT_TRUE(runner_.signals.empty()) << "revoked after 4 s of its own wait (8 s since the array began)";
  clock_.advance(1);
  step();
  ASSERT_EQ(runner_.signals.size(), 1u);
  EXPECT_EQ(runner_.signals[0].first, runner_.launched[2].id);
}

}  // namespace
}  // namespace yard
