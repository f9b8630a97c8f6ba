// The indirect engine against a scripted scheduler: a small fake dialect whose commands
// never run; the test answers each posted command itself. What is tested is the engine:
// submission before tracking, one status call per cycle whatever the number of jobs,
// history for jobs that left the queue, LOST, retries, crash recovery by UID, cancels.
#include "backends/indirect_backend.h"

#include <gtest/gtest.h>

#include <deque>
#include <fstream>
#include <filesystem>

#include "core/text.h"

namespace yard {
namespace {

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> f;
  std::size_t start = 0;
  for (;;) {
    auto bar = line.find('|', start);
    f.push_back(line.substr(start, bar - start));
    if (bar == std::string_view::npos) return f;
    start = bar + 1;
  }
}

Result<std::vector<NativeStatus>> parse_lines(std::string_view out, bool history) {
  std::vector<NativeStatus> v;
  std::size_t start = 0;
  while (start < out.size()) {
    auto nl = out.find('\n', start);
    std::string_view line = out.substr(start, nl - start);
    start = nl == std::string_view::npos ? out.size() : nl + 1;
    if (line.empty()) continue;
    auto f = fields(line);
    if (f.size() != 4) return err("bad line '" + std::string(line) + "'");
    NativeStatus s;
    s.native_id = std::string(f[0]);
    s.raw_state = std::string(f[1]);
    if (history) s.exit_code = std::stoi(std::string(f[2]));
    else s.reason = std::string(f[2]);
    s.name = std::string(f[3]);
    v.push_back(s);
  }
  return v;
}

class FakeDialect : public Dialect {
 public:
  std::string_view name() const override { return "fake"; }
  Result<std::string> batch_script(const JobSpec& spec, const SubmitContext& ctx) const override {
    if (spec.name == "refused-by-dialect") return err("the dialect refuses this job");
    std::string s = "#!/bin/sh\n# name " + native_name(ctx.uid, spec.name) + "\n";
    for (auto& d : ctx.dependencies) s += "# after " + d.native_id + "\n";
    return s;
  }
  std::vector<std::string> submit_argv(const std::string& path) const override { return {"fsub", path}; }
  Result<std::string> parse_submit(std::string_view out) const override {
    std::string t(out);
    while (!t.empty() && t.back() == '\n') t.pop_back();
    if (t.empty()) return err("empty");
    return t;
  }
  std::vector<std::string> poll_argv(const std::vector<std::string>& ids) const override {
    std::vector<std::string> a{"fq"};
    a.insert(a.end(), ids.begin(), ids.end());
    return a;
  }
  Result<std::vector<NativeStatus>> parse_poll(std::string_view out) const override { return parse_lines(out, false); }
  std::vector<std::string> history_argv(const std::vector<std::string>& ids) const override {
    std::vector<std::string> a{"fh"};
    a.insert(a.end(), ids.begin(), ids.end());
    return a;
  }
  Result<std::vector<NativeStatus>> parse_history(std::string_view out) const override { return parse_lines(out, true); }
  std::vector<std::string> find_argv() const override { return {"ffind"}; }
  std::vector<std::string> find_history_argv(const std::vector<std::string>& names, double since) const override {
    std::vector<std::string> a{"ffindh", "since=" + std::to_string(static_cast<long>(since))};
    a.insert(a.end(), names.begin(), names.end());
    return a;
  }
  std::vector<std::string> cancel_argv(const std::vector<std::string>& ids) const override {
    std::vector<std::string> a{"fcancel"};
    a.insert(a.end(), ids.begin(), ids.end());
    return a;
  }
  MappedState map_state(const NativeStatus& s) const override {
    if (s.raw_state == "PENDING") return {JobState::Pending, s.reason};
    if (s.raw_state == "RUNNING") return {JobState::Running, ""};
    if (s.raw_state == "COMPLETED") return {JobState::Completed, ""};
    if (s.raw_state == "FAILED") return {JobState::Failed, "exit " + std::to_string(s.exit_code.value_or(-1))};
    if (s.raw_state == "CANCELLED") return {JobState::Cancelled, ""};
    return {JobState::Unknown, s.raw_state};
  }
  std::string native_name(std::string_view uid, std::string_view) const override { return "yard-" + std::string(uid); }
  std::optional<std::string> uid_from_native_name(std::string_view n) const override {
    if (n.substr(0, 5) != "yard-") return std::nullopt;
    return std::string(n.substr(5));
  }
  bool transient_failure(int rc, std::string_view) const override { return rc == 8; }
};

class ScriptedQueue : public CommandQueue {
 public:
  void post(Command c) override { posted.push_back(std::move(c)); }
  std::vector<CompletedCommand> take_completed() override { return std::exchange(done, {}); }
  // Answers the oldest posted command.
  Command answer(std::string out, int rc = 0, std::string err = {}) {
    EXPECT_FALSE(posted.empty());
    Command c = posted.front();
    posted.pop_front();
    CommandResult r;
    r.exit_code = rc;
    r.out = std::move(out);
    r.err = std::move(err);
    done.push_back({c, r});
    return c;
  }
  std::deque<Command> posted;
  std::vector<CompletedCommand> done;
};

class IndirectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("yard-indirect-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto st = Store::open((dir_ / "store.db").string());
    ASSERT_TRUE(st) << st.error();
    store_ = std::make_unique<Store>(std::move(*st));
    config_.poll_interval_s = 10;
    config_.calls_per_second = 0;  // unlimited unless a test says otherwise
    config_.lost_after_s = 30;
    make_backend();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void make_backend() {
    backend_ = std::make_unique<IndirectBackend>(*store_, dialect_, queue_, config_, dir_.string(), "tester");
  }
  JobSpec spec(std::string name = "job") {
    JobSpec s;
    s.name = std::move(name);
    s.argv = {"/bin/true"};
    s.workdir = dir_.string();
    return s;
  }
  std::int64_t submit(JobSpec s) {
    auto ids = backend_->submit(std::move(s), now_);
    EXPECT_TRUE(ids) << ids.error();
    return ids ? ids->front() : 0;
  }
  void step() {
    backend_->step(now_);
    backend_->dispatch();
  }
  JobRecord job(std::int64_t id) { return **store_->job(id); }
  std::string uid_of(std::int64_t id) { return job(id).uid; }

  FakeDialect dialect_;
  ScriptedQueue queue_;
  IndirectConfig config_;
  std::filesystem::path dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<IndirectBackend> backend_;
  double now_ = 1000;
};

TEST_F(IndirectTest, SubmitsThenTracksToCompletionWithTheExitCodeFromHistory) {
  auto id = submit(spec());
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv[0], "fsub");
  EXPECT_EQ(job(id).submit_attempts, 1);  // noted before the command was posted
  queue_.answer("42\n");
  step();  // applies the id, polls
  EXPECT_EQ(job(id).native_id, "42");
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv, (std::vector<std::string>{"fq", "42"}));
  queue_.answer("42|RUNNING|None|yard-x\n");
  step();
  EXPECT_EQ(job(id).state, JobState::Running);
  now_ += 10;
  step();
  queue_.answer("");  // gone from the queue
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv, (std::vector<std::string>{"fh", "42"}));
  queue_.answer("42|FAILED|3|yard-x\n");
  step();
  auto j = job(id);
  EXPECT_EQ(j.state, JobState::Failed);
  EXPECT_EQ(j.exit_code, 3);
  EXPECT_EQ(backend_->active(), 0u);
}

TEST_F(IndirectTest, OneStatusCallPerCycleWhateverTheNumberOfJobs) {
  for (int i = 0; i < 50; ++i) submit(spec());
  step();
  // Submissions go out a few at a time so status calls still get their turn.
  int n = 0;
  while (!queue_.posted.empty()) {
    auto c = queue_.posted.front();
    if (c.argv[0] == "fsub") queue_.answer(std::to_string(100 + n++) + "\n");
    else queue_.answer("");
    step();
  }
  EXPECT_EQ(n, 50);
  auto before = backend_->stats();
  now_ += 10;
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv.size(), 51u);  // fq + 50 ids, one call
  EXPECT_EQ(backend_->stats().poll_calls, before.poll_calls + 1);
}

TEST_F(IndirectTest, AJobGoneFromQueueAndHistoryBecomesLostNeverCompleted) {
  auto id = submit(spec());
  step();
  queue_.answer("7\n");
  step();
  queue_.answer("");  // not in the queue
  step();
  queue_.answer("");  // nor in the history
  EXPECT_EQ(job(id).state, JobState::Pending);
  for (int i = 0; i < 5; ++i) {
    now_ += 10;
    step();
    while (!queue_.posted.empty()) queue_.answer("");
  }
  step();
  auto j = job(id);
  EXPECT_EQ(j.state, JobState::Lost);
  EXPECT_NE(j.reason.find("gone from both"), std::string::npos);
}

TEST_F(IndirectTest, AJobTheQueueStillListsAsEndedIsNotLostWhileTheHistoryLags) {
  auto id = submit(spec());
  step();
  queue_.answer("8\n");
  for (int i = 0; i < 10; ++i) {
    now_ += 10;
    step();
    while (!queue_.posted.empty()) {
      auto c = queue_.posted.front();
      queue_.answer(c.argv[0] == "fq" ? "8|COMPLETED|None|x\n" : "");  // the history has nothing yet
    }
  }
  step();
  EXPECT_EQ(job(id).state, JobState::Pending);
  for (int i = 0; i < 3; ++i) {  // the history catches up
    now_ += 10;
    step();
    while (!queue_.posted.empty()) {
      auto c = queue_.posted.front();
      queue_.answer(c.argv[0] == "fq" ? "8|COMPLETED|None|x\n" : "8|COMPLETED|0|x\n");
    }
  }
  step();
  EXPECT_EQ(job(id).state, JobState::Completed);
}

TEST_F(IndirectTest, AFailingStatusCallNeverMakesJobsLost) {
  auto id = submit(spec());
  step();
  queue_.answer("7\n");
  step();
  for (int i = 0; i < 10; ++i) {
    while (!queue_.posted.empty()) queue_.answer("", 1, "Unable to contact slurm controller");
    now_ += 60;
    step();
  }
  EXPECT_EQ(job(id).state, JobState::Pending);
  EXPECT_GT(backend_->stats().failed_calls, 0u);
}

TEST_F(IndirectTest, ARejectedSubmissionFailsWithTheSchedulersMessage) {
  auto id = submit(spec());
  step();
  queue_.answer("", 1, "sbatch: error: Batch job submission failed: Invalid partition name specified\n");
  step();
  auto j = job(id);
  EXPECT_EQ(j.state, JobState::Failed);
  EXPECT_NE(j.reason.find("Invalid partition name specified"), std::string::npos);
}

TEST_F(IndirectTest, ATransientFailureIsLookedUpThenRetriedWithBackoff) {
  auto id = submit(spec());
  step();
  queue_.answer("", 8, "controller down");
  step();
  // Before any retry: is it there after all? (find by UID)
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv[0], "ffind");
  queue_.answer("");
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv[0], "ffindh");
  queue_.answer("");
  step();
  EXPECT_TRUE(queue_.posted.empty());  // backoff: not at once
  now_ += 1;
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv[0], "fsub");
  EXPECT_EQ(job(id).submit_attempts, 2);
}

TEST_F(IndirectTest, AfterACrashASubmittedJobIsFoundByItsUidNotSubmittedTwice) {
  auto id = submit(spec());
  step();
  ASSERT_EQ(queue_.posted.front().argv[0], "fsub");
  // The daemon dies before the answer is stored: a new engine over the same store.
  queue_.posted.clear();
  make_backend();
  ASSERT_TRUE(backend_->recover(now_));
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv[0], "ffind");
  queue_.answer("99|PENDING|None|yard-" + uid_of(id) + "\n5|RUNNING|None|someone-else\n");
  step();
  EXPECT_EQ(job(id).native_id, "99");
  EXPECT_EQ(job(id).submit_attempts, 1);
  for (auto& c : queue_.posted) EXPECT_NE(c.argv[0], "fsub");
}

TEST_F(IndirectTest, AfterACrashAJobThatNeverReachedTheSchedulerIsSubmitted) {
  auto id = submit(spec());
  step();
  queue_.posted.clear();
  make_backend();
  ASSERT_TRUE(backend_->recover(now_));
  step();
  queue_.answer("");  // find: not in the queue
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv[0], "ffindh");
  queue_.answer("");  // nor in the history
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv[0], "fsub");
  EXPECT_EQ(job(id).submit_attempts, 2);
}

// The job was submitted, ran and ended while the daemon was down, long enough ago that
// the live queue forgot it: the history finds it by name, and it ends with its true
// state, submitted once.
TEST_F(IndirectTest, AfterACrashAJobThatAlreadyLeftTheQueueIsFoundInTheHistory) {
  auto id = submit(spec("gone"));
  auto other = submit(spec("never-sent"));
  step();
  queue_.posted.clear();
  make_backend();
  now_ += 500;
  ASSERT_TRUE(backend_->recover(now_));
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv[0], "ffind");
  queue_.answer("5|RUNNING|None|someone-else\n");
  step();
  // One history call for both, by their native names, from their submit time on.
  ASSERT_EQ(queue_.posted.size(), 1u);
  const auto argv = queue_.posted.front().argv;
  EXPECT_EQ(argv, (std::vector<std::string>{"ffindh", "since=1000", "yard-" + uid_of(id), "yard-" + uid_of(other)}));
  queue_.answer("77|FAILED|3|yard-" + uid_of(id) + "\n");
  step();
  EXPECT_EQ(job(id).native_id, "77");
  EXPECT_EQ(job(id).submit_attempts, 1);
  // The other one was in neither: submitted again now, and only it; the status cycle
  // starts.
  ASSERT_EQ(queue_.posted.size(), 2u);
  EXPECT_EQ(queue_.posted[0].argv[0], "fsub");
  EXPECT_EQ(queue_.posted[1].argv[0], "fq");
  queue_.answer("78\n");
  queue_.answer("");  // the queue does not list 77 any more
  step();
  EXPECT_EQ(job(other).native_id, "78");
  EXPECT_EQ(job(other).submit_attempts, 2);
  // Its history gives the end. 78 is not asked: the listing was planned before its
  // submission returned (commands run side by side), so it could not show 78 yet.
  ASSERT_FALSE(queue_.posted.empty());
  EXPECT_EQ(queue_.posted.front().argv, (std::vector<std::string>{"fh", "77"}));
  queue_.answer("77|FAILED|3|yard-" + uid_of(id) + "\n");
  step();
  EXPECT_EQ(job(id).state, JobState::Failed);
  EXPECT_EQ(job(id).exit_code, 3);
}

// A failing history look-up never leads to a second submission: it is asked again.
TEST_F(IndirectTest, AFailedHistoryLookUpIsRetriedNeverSubmitted) {
  auto id = submit(spec());
  step();
  queue_.posted.clear();
  make_backend();
  ASSERT_TRUE(backend_->recover(now_));
  step();
  queue_.answer("");
  step();
  ASSERT_EQ(queue_.posted.front().argv[0], "ffindh");
  queue_.answer("", 1, "slurmdbd: connection refused");
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv[0], "ffindh");
  EXPECT_EQ(job(id).submit_attempts, 1);
}

TEST_F(IndirectTest, ArraysAreOneSubmissionWithElementIds) {
  auto s = spec();
  s.array = *parse_array_spec("1-3");
  auto ids = backend_->submit(s, now_);
  ASSERT_TRUE(ids);
  ASSERT_EQ(ids->size(), 3u);
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  queue_.answer("50\n");
  step();
  EXPECT_EQ(job((*ids)[0]).native_id, "50_1");
  EXPECT_EQ(job((*ids)[2]).native_id, "50_3");
}

TEST_F(IndirectTest, AHetJobIsOneJobWithTheStateOfComponentZero) {
  auto s = spec("het");
  Component gpu;
  gpu.partition = "gpu";
  gpu.res.gpus = 1;
  s.components = {gpu};
  auto id = submit(s);
  step();
  queue_.answer("13\n");  // the submit command returns the base id
  step();
  EXPECT_EQ(job(id).native_id, "13");
  // The queue lists the components, never 13 itself.
  queue_.answer("13+0|PENDING|Resources|yard-x\n13+1|PENDING|Resources|yard-x\n");
  step();
  EXPECT_EQ(job(id).state, JobState::Pending);
  now_ += 10;
  step();
  queue_.answer("13+1|RUNNING|None|yard-x\n13+0|RUNNING|None|yard-x\n");
  step();
  EXPECT_EQ(job(id).state, JobState::Running);
  now_ += 10;
  step();
  queue_.answer("");
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv, (std::vector<std::string>{"fh", "13"}));
  // Component 0's record is the job's, whatever the order.
  queue_.answer("13+1|COMPLETED|0|yard-x\n13+0|FAILED|3|yard-x\n");
  step();
  auto j = job(id);
  EXPECT_EQ(j.state, JobState::Failed);
  EXPECT_EQ(j.exit_code, 3);
  EXPECT_EQ(backend_->active(), 0u);
}

TEST_F(IndirectTest, DependenciesWaitForTheParentsNativeIdAndUseIt) {
  auto parent = submit(spec("parent"));
  auto s = spec("child");
  s.dependencies = {{DependencyKind::AfterOk, parent}};
  auto child = submit(s);
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);  // only the parent: the child waits for its id
  queue_.answer("10\n");
  step();
  bool child_submitted = false;
  while (!queue_.posted.empty()) {
    auto c = queue_.answer("11\n");
    child_submitted = child_submitted || c.argv[0] == "fsub";
    step();
  }
  EXPECT_TRUE(child_submitted);
  EXPECT_EQ(job(child).native_id, "11");
  auto script = dir_ / "fake" / (uid_of(child) + ".sh");
  std::ifstream f(script);
  std::string text((std::istreambuf_iterator<char>(f)), {});
  EXPECT_NE(text.find("# after 10"), std::string::npos) << text;
}

TEST_F(IndirectTest, CancelBeforeSubmissionNeedsNoSchedulerCall) {
  auto id = submit(spec());
  auto acted = backend_->cancel({id});
  ASSERT_TRUE(acted);
  step();
  EXPECT_TRUE(queue_.posted.empty());
  EXPECT_EQ(job(id).state, JobState::Cancelled);
}

TEST_F(IndirectTest, CancelIsSentAndConfirmedByState) {
  auto id = submit(spec());
  step();
  queue_.answer("12\n");
  step();
  queue_.answer("12|RUNNING|None|x\n");
  ASSERT_TRUE(backend_->cancel({id}));
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv, (std::vector<std::string>{"fcancel", "12"}));
  queue_.answer("");  // exit 0 says nothing
  step();
  EXPECT_EQ(job(id).state, JobState::Running);  // not yet: the state decides
  now_ += 10;
  step();
  queue_.answer("");
  step();
  queue_.answer("12|CANCELLED|0|x\n");
  step();
  EXPECT_EQ(job(id).state, JobState::Cancelled);
}

TEST_F(IndirectTest, BackgroundCallsAreCappedByTheTokenBucket) {
  config_.calls_per_second = 0.5;
  config_.burst = 1;
  config_.poll_interval_s = 0.01;
  make_backend();
  submit(spec());
  step();
  queue_.answer("3\n");
  // 50 s of engine time, status cycles wanted every 0.01 s: the bucket allows one call
  // every 2 s (plus the burst of one).
  int polls = 0;
  for (int i = 0; i < 50; ++i) {
    now_ += 1;
    step();
    while (!queue_.posted.empty()) {
      auto c = queue_.answer("3|RUNNING|None|x\n");
      polls += c.argv[0] == "fq";
    }
  }
  EXPECT_LE(polls, 26);
  EXPECT_GE(polls, 20);
  EXPECT_GT(backend_->next_wakeup_s(now_ + 0.001), 0.5);
}

TEST_F(IndirectTest, BadInputIsRejectedAtSubmitAndNothingIsStored) {
  auto r = backend_->submit(spec("refused-by-dialect"), now_);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("refuses"), std::string::npos);
  auto s = spec();
  s.dependencies = {{DependencyKind::AfterOk, 12345}};
  auto r2 = backend_->submit(s, now_);
  ASSERT_FALSE(r2);
  EXPECT_NE(r2.error().find("12345"), std::string::npos);
  EXPECT_EQ(*store_->count_jobs(), 0);
}

TEST(IndirectConfig, ReadsSettingsAndNamesBadOnes) {
  auto dir = std::filesystem::temp_directory_path() / ("yard-indirect-config-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto path = (dir / "c.yaml").string();
  std::ofstream(path) << "poll_interval: 0.5\ncalls_per_second: 1.5\n";
  auto c = load_indirect_config(path);
  ASSERT_TRUE(c) << c.error();
  EXPECT_DOUBLE_EQ(c->poll_interval_s, 0.5);
  EXPECT_DOUBLE_EQ(c->calls_per_second, 1.5);
  std::ofstream(path) << "poll_interval: 2\npoll_intervall: 3\n";
  auto bad = load_indirect_config(path);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find(":2: unknown setting 'poll_intervall'"), std::string::npos) << bad.error();
  std::ofstream(path) << "lost_after: soon\n";
  auto bad2 = load_indirect_config(path);
  ASSERT_FALSE(bad2);
  EXPECT_NE(bad2.error().find("lost_after"), std::string::npos);
  EXPECT_TRUE(load_indirect_config((dir / "absent.yaml").string()));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace yard
