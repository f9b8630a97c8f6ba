// The Backend seam, proven from outside: a backend that exists only in this test is
// registered and driven through the real daemon (run_daemon, in a child process) and its
// socket protocol: submit -> status -> cancel -> restart. Nothing outside this file knows
// of it.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include "backends/backend_registry.h"
#include "server/daemon.h"
#include "client/daemon_client.h"
#include "store/store.h"

namespace yard {
namespace {

namespace fs = std::filesystem;

// Runs a job at the next step; a job named "quick" completes at the one after, the
// others run until cancelled. Its memory is rebuilt from the store by recover().
class FakeBackend final : public Backend {
 public:
  explicit FakeBackend(Store& store) : store_(store) {}
  const std::string& name() const override { return name_; }
  Status recover(double) override {
    auto active = store_.active_jobs_of(name_);
    if (!active) return active.failure();
    for (auto& j : *active) jobs_[j.id] = {j.state, j.name};
    return {};
  }
  Result<std::vector<std::int64_t>> submit(JobSpec spec, double now) override {
    if (spec.argv.empty()) return err("fake: a job needs a command");
    auto ids = store_.insert_jobs(spec, now);
    if (!ids) return ids;
    for (auto id : *ids) jobs_[id] = {JobState::Pending, spec.name};
    return ids;
  }
  Result<std::vector<std::int64_t>> cancel(const std::vector<std::int64_t>& ids, double now) override {
    std::vector<std::int64_t> acted;
    for (auto id : ids)
      if (auto it = jobs_.find(id); it != jobs_.end()) {
        Transition t;
        t.reason = "cancelled by the fake";
        t.end_time = now;
        if (auto s = store_.transition(id, JobState::Cancelled, t, now); !s) return s.failure();
        jobs_.erase(it);
        acted.push_back(id);
      }
    return acted;
  }
  void step(double now, bool start_new) override {
    for (auto it = jobs_.begin(); it != jobs_.end();) {
      auto& [id, job] = *it;
      Transition t;
      if (job.state == JobState::Running && job.name == "quick") {
        t.end_time = now;
        t.exit_code = 0;
        (void)store_.transition(id, JobState::Completed, t, now);
        it = jobs_.erase(it);
        continue;
      }
      if (job.state == JobState::Pending && start_new) {
        t.start_time = now;
        (void)store_.transition(id, JobState::Running, t, now);
        job.state = JobState::Running;
      }
      ++it;
    }
  }
  double next_wakeup_s(double) const override {
    for (auto& [id, job] : jobs_)
      if (job.state == JobState::Pending || job.name == "quick") return 0.01;
    return 3600;
  }
  std::size_t running() const override { return jobs_.size(); }
  nlohmann::json describe() const override { return {{"fake_jobs", jobs_.size()}}; }

 private:
  struct Job {
    JobState state;
    std::string name;
  };
  Store& store_;
  std::string name_ = "fake";
  std::map<std::int64_t, Job> jobs_;
};

BackendRegistry fake_only() {
  BackendRegistry r;
  r.add("fake", [](const BackendContext& c) -> Result<std::unique_ptr<Backend>> {
    return std::unique_ptr<Backend>(std::make_unique<FakeBackend>(c.store));
  });
  return r;
}

bool eventually(const std::function<bool()>& done, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

class FakeBackendSeam : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("yard-seam-" + std::to_string(::getpid()))).string();
    fs::remove_all(dir_);
    paths_ = {dir_ + "/run", dir_ + "/state", dir_ + "/run/yard.sock", dir_ + "/state/store.db",
              dir_ + "/state/daemon.log", dir_ + "/state/daemon.lock", dir_ + "/config/local.yaml",
              dir_ + "/config/policy.yaml"};
    start();
  }
  void TearDown() override {
    stop();
    fs::remove_all(dir_);
  }

  void start() {
    daemon_ = ::fork();
    ASSERT_GE(daemon_, 0);
    if (daemon_ == 0) ::_exit(run_daemon(paths_, fake_only()));
    ASSERT_TRUE(eventually([&] { return static_cast<bool>(client().ping()); }, 30)) << "the daemon never answered";
  }
  void stop() {
    if (daemon_ <= 0) return;
    (void)client().shutdown({});
    int status = 0;
    ASSERT_EQ(::waitpid(daemon_, &status, 0), daemon_);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "daemon status " << status;
    daemon_ = 0;
  }

  DaemonClient client() const { return DaemonClient(paths_); }

  std::int64_t submit(const std::string& name) {
    JobSpec spec;
    spec.name = name;
    spec.argv = {"true"};
    spec.backend = "fake";
    auto reply = client().submit({spec, "", ""});
    EXPECT_TRUE(reply) << reply.error();
    return reply ? reply->ids.at(0) : 0;
  }

  JobState state(std::int64_t id) {
    auto store = Store::open(paths_.store, Store::Mode::ReadOnly);
    if (!store) return JobState::Unknown;
    auto j = store->job(id);
    return j && *j ? (*j)->state : JobState::Unknown;
  }

  std::string dir_;
  Paths paths_;
  pid_t daemon_ = 0;
};

TEST_F(FakeBackendSeam, SubmitStatusCancelAndRestartThroughTheRealDaemon) {
  const auto quick = submit("quick");
  const auto held = submit("held");
  EXPECT_TRUE(eventually([&] { return state(quick) == JobState::Completed; }, 20)) << to_string(state(quick));
  EXPECT_TRUE(eventually([&] { return state(held) == JobState::Running; }, 20)) << to_string(state(held));
  auto ping = client().ping();
  ASSERT_TRUE(ping) << ping.error();
  EXPECT_EQ(ping->backends.value("fake_jobs", -1), 1) << ping->backends.dump();  // its describe() reaches `server status`

  // A restart: the backend finds its running job again in the store, and can cancel it.
  stop();
  start();
  auto cancelled = client().cancel({{held}});
  ASSERT_TRUE(cancelled) << cancelled.error();
  EXPECT_EQ(cancelled->ids, std::vector<std::int64_t>{held});
  EXPECT_EQ(state(held), JobState::Cancelled);
  EXPECT_EQ(state(quick), JobState::Completed);
}

TEST_F(FakeBackendSeam, TheDaemonKnowsOnlyTheRegisteredBackends) {
  JobSpec spec;
  spec.argv = {"true"};
  spec.backend = "local";
  auto reply = client().submit({spec, "", ""});
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.kind(), ErrorKind::Invalid);
  EXPECT_NE(reply.error().find("unknown backend 'local' (known: fake)"), std::string::npos) << reply.error();
  auto none = client().cancel({{424242}});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.kind(), ErrorKind::NotFound);
  EXPECT_NE(none.error().find("no job 424242"), std::string::npos) << none.error();
}

}  // namespace
}  // namespace yard
