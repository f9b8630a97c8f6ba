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
#include "backends/local/local_entry.h"
#include "backends/slurm/slurm_language.h"
#include "local/job_host.h"
#include "server/daemon.h"
#include "client/daemon_client.h"
#include "store/store.h"
#include "translate/translate.h"

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
  // Its classes: one of its own, one for a backend this daemon does not have.
  const JobClasses* job_classes() const override { return &classes_; }
  bool honours(std::string_view option) const override { return option == "exclusive"; }

 private:
  struct Job {
    JobState state;
    std::string name;
  };
  Store& store_;
  std::string name_ = "fake";
  std::map<std::int64_t, Job> jobs_;
  JobClasses classes_{{"quickly", {"fake", "", "", "", 0, {}, std::nullopt}},
                      {"elsewhere", {"nowhere", "", "", "", 0, {}, std::nullopt}}};
};

BackendRegistry fake_only(bool with_local = false) {
  BackendRegistry r;
  if (with_local) register_local_backend(r);
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
    if (daemon_ == 0) ::_exit(run_daemon(paths_, fake_only(with_local_)));
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

  std::int64_t submit(const std::string& name, const std::string& job_class = "") {
    JobSpec spec;
    spec.name = name;
    spec.argv = {"true"};
    spec.backend = job_class.empty() ? "fake" : "";
    auto reply = client().submit({spec, job_class, ""});
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
  bool with_local_ = false;
};

// The fake beside the real local backend (its job host is this program: main() below).
class FakeAndLocalSeam : public FakeBackendSeam {
 protected:
  void SetUp() override {
    with_local_ = true;
    FakeBackendSeam::SetUp();
  }
};

// A flow's step on the local backend after a step of another backend: held until that
// job ends, then run (or, if it failed, never). The other backend tells the local one
// nothing: the local backend finds the end in the store.
TEST_F(FakeAndLocalSeam, ALocalStepWaitsForAStepOfAnotherBackend) {
  auto flow = [&](const std::string& parent_name, const std::string& marker) {
    SubmitManyRequest r;
    JobSpec parent;
    parent.name = parent_name;
    parent.argv = {"true"};
    parent.backend = "fake";
    parent.workdir = dir_;
    JobSpec child;
    child.name = "after";
    child.argv = {"/bin/sh", "-c", "touch " + marker};
    child.workdir = dir_;
    child.backend = "local";
    r.jobs = {{parent, "", {}, false, "", "", {}, false, ""}, {child, "", {0}, false, "", "", {}, false, ""}};
    auto reply = client().submit_many(r);
    EXPECT_TRUE(reply) << reply.error();
    return reply ? std::pair{reply->ids[0][0], reply->ids[1][0]} : std::pair<std::int64_t, std::int64_t>{0, 0};
  };
  // "quick" completes on the fake at its second step: the local job runs after it.
  // Plain variables, not structured bindings: C++20 lambdas may not capture those (clang).
  const auto quick_pair = flow("quick", dir_ + "/ran-after-quick");
  const std::int64_t quick = quick_pair.first, after_quick = quick_pair.second;
  ASSERT_GT(quick, 0);
  EXPECT_TRUE(eventually([&] { return state(after_quick) == JobState::Completed; }, 30)) << to_string(state(after_quick));
  EXPECT_TRUE(fs::exists(dir_ + "/ran-after-quick"));
  // "held" runs on the fake until cancelled: the local job waits, then never runs.
  const auto held_pair = flow("held", dir_ + "/ran-after-held");
  const std::int64_t held = held_pair.first, after_held = held_pair.second;
  ASSERT_TRUE(eventually([&] { return state(held) == JobState::Running; }, 30));
  EXPECT_EQ(state(after_held), JobState::Pending);
  ASSERT_TRUE(client().cancel({{held}}));
  EXPECT_TRUE(eventually([&] { return state(after_held) == JobState::Cancelled; }, 30)) << to_string(state(after_held));
  EXPECT_FALSE(fs::exists(dir_ + "/ran-after-held"));
}

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

// A class may name any backend the daemon has: the fake's own class reaches it; one
// naming a backend the daemon lacks is refused, naming both. What the backend does not
// honour is the backend's to say.
TEST_F(FakeBackendSeam, ClassesNameAnyBackendTheDaemonHasAndItSaysWhatItIgnores) {
  const auto quick = submit("quick", "quickly");
  EXPECT_TRUE(eventually([&] { return state(quick) == JobState::Completed; }, 20)) << to_string(state(quick));
  JobSpec spec;
  spec.argv = {"true"};
  auto elsewhere = client().submit({spec, "elsewhere", ""});
  ASSERT_FALSE(elsewhere);
  EXPECT_NE(elsewhere.error().find("class 'elsewhere' runs on backend 'nowhere', which this daemon does not have "
                                   "(known: fake)"),
            std::string::npos)
      << elsewhere.error();
  spec.backend = "fake";
  spec.slurm_options = {{"exclusive", ""}, {"constraint", "haswell"}};
  auto warned = client().submit({spec, "", ""});
  ASSERT_TRUE(warned) << warned.error();
  EXPECT_EQ(warned->warnings, std::vector<std::string>{"--constraint=haswell: backend fake does not honour it; ignored"});
  spec.slurm_options = {{"begin", "now+1hour"}};
  auto refused = client().submit({spec, "", ""});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("--begin=now+1hour: backend fake cannot run this job as asked"), std::string::npos)
      << refused.error();
}

// A script language that exists only here: "#FAKE" lines, one word a resource. Registered
// beside Slurm's, it is a target of translate and a kind a script's directives are read as,
// with nothing outside this file knowing of it.
class FakeLanguage final : public ScriptLanguage {
 public:
  std::string_view name() const override { return "fake"; }
  std::string_view title() const override { return "Fake"; }
  std::string_view directive_word() const override { return "#FAKE"; }
  bool has_directives(std::string_view script, std::string_view) const override {
    return script.find("\n#FAKE ") != std::string_view::npos;
  }
  Result<TranslatedDirectives> read_directives(std::string_view script, std::string_view origin,
                                               IsDirectory) const override {
    TranslatedDirectives d;
    d.directives.kind = "#FAKE";
    d.directives.has_shebang = script.starts_with("#!");
    int number = 0;
    for (std::size_t at = 0; at < script.size();) {
      const auto nl = script.find('\n', at);
      const std::string_view line = script.substr(at, nl == std::string_view::npos ? nl : nl - at);
      ++number;
      at = nl == std::string_view::npos ? script.size() : nl + 1;
      if (!line.starts_with("#FAKE ntasks=")) continue;
      std::vector<std::string> words{"--ntasks", std::string(line.substr(13))};
      d.directives.lines.push_back({number, 0, words});
      d.directives.words.insert(d.directives.words.end(), words.begin(), words.end());
    }
    if (origin.empty()) return err("no origin");
    return d;
  }
  bool is_directive_line(std::string_view line) const override { return directive_in_column_one(line, "#FAKE", false); }
  jobtext::Directives write(const jobtext::Job& job, const WriteContext&) const override {
    return {"#FAKE ntasks=" + std::to_string(job.spec.res.ntasks) + "\n", {}};
  }
};

TEST(FakeLanguageSeam, TranslateWritesAndReadsALanguageRegisteredOnlyHere) {
  ScriptLanguages languages;
  register_slurm_language(languages);
  languages.add(std::make_unique<FakeLanguage>());
  auto none = [](const std::string& p) -> Result<std::string> { return err("cannot read " + p); };
  auto to_fake = translate::translate(languages, {"#!/bin/sh\n#SBATCH -n 4\necho hi\n", "job.sh", "", "fake", "", ""},
                                      none, nullptr);
  ASSERT_TRUE(to_fake) << to_fake.error();
  EXPECT_EQ(to_fake->output, "#!/bin/sh\n#FAKE ntasks=4\necho hi\n");
  // Back: told apart by its directives, read as sbatch's words.
  auto back = translate::translate(languages, {to_fake->output, "job.fake", "", "slurm", "", ""}, none, nullptr);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->from, "fake");
  EXPECT_EQ(back->output, "#!/bin/sh\n#SBATCH --ntasks=4\necho hi\n");
  auto unknown = translate::translate(languages, {to_fake->output, "job.fake", "", "pbs", "", ""}, none, nullptr);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error(), "unknown scheduler 'pbs' (slurm, fake)");
}

}  // namespace
}  // namespace yard

// The local backend's job host is this program started again (/proc/self/exe __job-host N),
// as it is yardd in a real daemon.
int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "__job-host") return yard::run_job_host(std::atoi(argv[2]));
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
