// The indirect engine against a scripted scheduler (indirect_testing.h): submission
// before tracking, one status call per cycle whatever the number of jobs, history for
// jobs that left the queue, LOST, retries, arrays, het jobs, dependencies, cancels.
#include "backends/indirect_testing.h"

namespace yard {
namespace {

using namespace indirect_testing;  // NOLINT: the bench of this test

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

TEST_F(IndirectTest, AHugeAnswerIsStoredAsAnExcerpt) {
  auto id = submit(spec());
  step();
  queue_.answer("", 8, std::string(5 << 20, 'e'));  // a qsub that printed megabytes
  step();
  EXPECT_LT(job(id).reason.size(), 1200u);
  EXPECT_EQ(job(id).reason.rfind("not submitted yet: fake: eee", 0), 0u);
}

TEST_F(IndirectTest, ATransientFailureIsLookedUpThenRetriedWithBackoff) {
  auto id = submit(spec());
  step();
  queue_.answer("", 8, "controller down");
  step();
  // The user sees why the job waits, and what it waits for: the look-up, not a retry.
  EXPECT_EQ(job(id).reason, "not submitted yet: fake: controller down; looking it up in fake's records before submitting again");
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
  queue_.answer("fake-77");
  step();
  EXPECT_EQ(job(id).reason, "") << "the reason goes once it is submitted";
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

// Flux refuses a job whose afterok parent has already failed: the job will never run,
// as one yard held back would not; any other refusal is a failure.
TEST_F(IndirectTest, ASubmissionRefusedForADependencyIsCancelledAsNeverSatisfied) {
  for (bool refuses : {false, true}) {
    dialect_.refuses_dependents = refuses;
    const auto id = submit(spec());
    step();
    queue_.answer("", 1, "dependency: afterok: this job can never run\n");
    step();
    const auto j = job(id);
    EXPECT_EQ(j.state, refuses ? JobState::Cancelled : JobState::Failed) << refuses;
    EXPECT_EQ(j.reason.rfind("DependencyNeverSatisfied", 0) == 0, refuses) << j.reason;
    queue_.posted.clear();
  }
}

}  // namespace
}  // namespace yard
