// On a scripted scheduler (indirect_testing.h): `yard routes move` takes a job out of the
// scheduler's queue with a cancel that spares a started job, and hands it over only once
// its record shows it ended without having run; one that started first stays and runs
// here; a restarted daemon finishes a move; a scheduler without such a cancel holds the
// job first, and cancels it once a listing made after the hold shows it pending; one with
// neither keeps its queued jobs.
#include "backends/indirect_testing.h"

namespace yard {
namespace {

using namespace indirect_testing;  // NOLINT: the bench of this test

class IndirectMove : public IndirectTest {
 protected:
  // A job in the scheduler's queue as native id 7, pending.
  std::int64_t queued_job() {
    auto id = submit(spec());
    step();
    queue_.answer("7\n");
    now_ += 10;
    step();
    answer_to("fq", "7|PENDING|Priority|yard-" + uid_of(id) + "\n");
    step();
    return id;
  }
};

TEST_F(IndirectMove, AQueuedJobLeavesOnceTheSchedulerCancelledItUnstarted) {
  dialect_.pending_cancel = true;
  make_backend();
  auto id = queued_job();
  EXPECT_EQ(backend_->release(id, "local", true).outcome, Release::Leaving);  // dry run: nothing sent
  step();
  EXPECT_EQ(posted("fcancelp"), 0);
  EXPECT_EQ(backend_->release(id, "local", false).outcome, Release::Leaving);
  EXPECT_EQ(job(id).moving_to, "local");
  step();
  ASSERT_EQ(posted("fcancelp"), 1);
  EXPECT_EQ(queue_.posted.back().argv, (std::vector<std::string>{"fcancelp", "7"}));
  answer_to("fcancelp", "");
  now_ += 10;
  step();
  answer_to("fq", "");  // gone from the queue: its history tells how
  step();
  EXPECT_TRUE(backend_->take_released().empty());  // not before its record says so
  answer_to("fh", "7|CANCELLED|0|yard-" + uid_of(id) + "\n");
  step();
  EXPECT_EQ(backend_->take_released(), std::vector<std::int64_t>{id});
  EXPECT_EQ(job(id).state, JobState::Pending);  // the caller moves it
  EXPECT_EQ(backend_->active(), 0u);
}

TEST_F(IndirectMove, AJobThatStartedFirstStaysAndRunsHere) {
  dialect_.pending_cancel = true;
  make_backend();
  auto id = queued_job();
  ASSERT_EQ(backend_->release(id, "local", false).outcome, Release::Leaving);
  step();
  answer_to("fcancelp", "");  // the scheduler skipped it: it had started
  now_ += 10;
  step();
  answer_to("fq", "7|RUNNING|None|yard-" + uid_of(id) + "|node1\n");
  step();
  EXPECT_EQ(job(id).state, JobState::Running);
  EXPECT_EQ(job(id).moving_to, "");  // the move is given up
  now_ += 10;
  step();
  answer_to("fq", "");
  step();
  answer_to("fh", "7|FAILED|3|yard-" + uid_of(id) + "|node1\n");
  step();
  EXPECT_TRUE(backend_->take_released().empty());
  EXPECT_EQ(job(id).state, JobState::Failed);  // as it ended, not as cancelled
}

TEST_F(IndirectMove, ARestartedDaemonFinishesTheMove) {
  dialect_.pending_cancel = true;
  make_backend();
  auto id = queued_job();
  ASSERT_EQ(backend_->release(id, "local", false).outcome, Release::Leaving);
  queue_.posted.clear();
  make_backend();  // the daemon restarted before the cancel was sent
  ASSERT_TRUE(backend_->recover(now_));
  step();
  ASSERT_EQ(posted("fcancelp"), 1);
  answer_to("fcancelp", "");
  step();
  answer_to("fq", "");
  step();
  answer_to("fh", "7|CANCELLED|0|yard-" + uid_of(id) + "\n");
  step();
  EXPECT_EQ(backend_->take_released(), std::vector<std::int64_t>{id});
}

TEST_F(IndirectMove, WithoutSuchACancelAQueuedJobIsHeldThenCancelledOnceAListingShowsItStillPending) {
  dialect_.holds = true;
  make_backend();
  auto id = queued_job();
  ASSERT_EQ(backend_->release(id, "local", false).outcome, Release::Leaving);
  step();
  ASSERT_EQ(posted("fhold"), 1);
  EXPECT_EQ(posted("fcancel"), 0);
  answer_to("fhold", "");
  step();
  EXPECT_EQ(posted("fcancel"), 0);  // not before a listing made after the hold
  now_ += 10;
  step();
  answer_to("fq", "7|PENDING|held|yard-" + uid_of(id) + "\n");
  step();
  ASSERT_EQ(posted("fcancel"), 1);
  EXPECT_EQ(queue_.posted.back().argv, (std::vector<std::string>{"fcancel", "7"}));
  answer_to("fcancel", "");
  now_ += 10;
  step();
  answer_to("fq", "");  // gone; a scheduler may keep no record of a job that never ran
  step();
  answer_to("fh", "");
  step();
  EXPECT_EQ(backend_->take_released(), std::vector<std::int64_t>{id});
  EXPECT_EQ(job(id).state, JobState::Pending);
  EXPECT_FALSE(job(id).held);  // the move's hold is not the user's
}

// A scheduler whose hold suspends a job that started (LSF's bstop) would keep it stopped:
// the move's own hold is released, and the job runs on as its user left it.
TEST_F(IndirectMove, AJobThatStartedBeforeItsHoldStaysIsReleasedAndIsNeverCancelled) {
  dialect_.holds = true;
  make_backend();
  auto id = queued_job();
  ASSERT_EQ(backend_->release(id, "local", false).outcome, Release::Leaving);
  step();
  answer_to("fhold", "");  // it had started: the hold changed nothing
  now_ += 10;
  step();
  answer_to("fq", "7|RUNNING|None|yard-" + uid_of(id) + "|node1\n");
  step();
  EXPECT_EQ(job(id).state, JobState::Running);
  EXPECT_EQ(job(id).moving_to, "");
  step();
  ASSERT_EQ(posted("frls"), 1);
  EXPECT_EQ(queue_.posted.back().argv, (std::vector<std::string>{"frls", "7"}));
  answer_to("frls", "");
  now_ += 100;
  step();
  EXPECT_EQ(posted("fcancel"), 0);
  EXPECT_EQ(posted("frls"), 0);  // released once
  EXPECT_FALSE(job(id).held);
}

TEST_F(IndirectMove, ASchedulerWithoutACancelThatSparesStartedJobsKeepsItsQueue) {
  auto id = queued_job();
  auto r = backend_->release(id, "local", false);
  EXPECT_EQ(r.outcome, Release::Stays);
  EXPECT_EQ(r.why, "in fake's queue as 7: fake cannot take a job out of its queue without racing its start");
  EXPECT_EQ(job(id).moving_to, "");
}

}  // namespace
}  // namespace yard
