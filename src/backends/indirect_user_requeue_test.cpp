// On a scripted scheduler (indirect_testing.h): yard requeue, the same on every scheduler:
// a running job's run is cancelled, and once it has ended the job is submitted again
// under its ids (then held, with --hold, until released); a daemon stopped in between
// finishes it; what cannot be requeued is refused, naming why.
#include "backends/indirect_testing.h"

namespace yard {
namespace {

using namespace indirect_testing;  // NOLINT: the bench of this test

class IndirectUserRequeue : public IndirectTest {
 protected:
  // A job running as native 20.
  std::int64_t running_job() {
    auto id = submit(spec("sim"));
    step();
    queue_.answer("20\n");
    step();
    now_ += 10;
    step();
    queue_.answer("20|RUNNING|None|x\n");
    step();
    EXPECT_EQ(job(id).state, JobState::Running);
    return id;
  }
  Result<std::vector<std::int64_t>> act(JobAction a, std::int64_t id) {
    auto jobs = store_->jobs({id});
    EXPECT_TRUE(jobs);
    return backend_->act(a, {id}, *jobs, now_);
  }
  // The run 20 ends as the scheduler's cancel left it: gone from the queue, cancelled in
  // the history.
  void run_ends_cancelled() {
    ASSERT_EQ(posted("fcancel"), 1);
    EXPECT_EQ(answer_to("fcancel", "").argv, (std::vector<std::string>{"fcancel", "20"}));
    for (int i = 0; i < 5 && posted("fsub") == 0; ++i) {
      while (posted("fq")) answer_to("fq", "");
      while (posted("fh")) answer_to("fh", "20|CANCELLED|0|x\n");
      step();
      now_ += 10;
      step();
    }
  }
};

TEST_F(IndirectUserRequeue, ARunningJobsRunIsCancelledThenItIsSubmittedAgainUnderItsIds) {
  const auto id = running_job();
  const std::string uid = job(id).uid;
  auto r = act(JobAction::Requeue, id);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(*r, std::vector<std::int64_t>{id});
  step();
  run_ends_cancelled();
  auto j = job(id);
  EXPECT_EQ(j.state, JobState::Pending);  // not CANCELLED
  EXPECT_EQ(j.native_id, "");
  EXPECT_EQ(j.reason, "requeued: fake job 20 ended (CANCELLED); submitted again") << j.reason;
  EXPECT_EQ(j.moving_to, "");
  EXPECT_EQ(j.ended_try, "20");
  ASSERT_EQ(posted("fsub"), 1);
  queue_.answer("21\n");
  step();
  EXPECT_EQ(job(id).native_id, "21");
  EXPECT_EQ(job(id).uid, uid);
  for (int i = 0; i < 5 && job(id).state != JobState::Completed; ++i) {
    now_ += 10;
    step();
    while (posted("fq")) answer_to("fq", "");
    while (posted("fh")) answer_to("fh", "21|COMPLETED|0|x\n");
    step();
  }
  EXPECT_EQ(job(id).state, JobState::Completed);
  EXPECT_EQ(backend_->stats().submit_calls, 2u);
}

TEST_F(IndirectUserRequeue, WithHoldItWaitsUnsubmittedUntilReleased) {
  const auto id = running_job();
  ASSERT_TRUE(act(JobAction::RequeueHold, id));
  EXPECT_TRUE(job(id).held);
  step();
  run_ends_cancelled();
  EXPECT_EQ(job(id).state, JobState::Pending);
  EXPECT_NE(job(id).reason.find("held until yard release"), std::string::npos) << job(id).reason;
  now_ += 60;
  step();
  EXPECT_EQ(posted("fsub"), 0);
  // A daemon restarted meanwhile keeps it held.
  make_backend();
  ASSERT_TRUE(backend_->recover(now_));
  now_ += 60;
  step();
  EXPECT_EQ(posted("fsub"), 0);
  auto released = act(JobAction::Release, id);
  ASSERT_TRUE(released) << released.error();
  step();
  EXPECT_EQ(posted("fsub"), 1);
}

TEST_F(IndirectUserRequeue, ADaemonStoppedBetweenTheCancelAndTheEndFinishesTheRequeue) {
  const auto id = running_job();
  ASSERT_TRUE(act(JobAction::Requeue, id));
  EXPECT_EQ(job(id).moving_to, "(requeue)");
  make_backend();  // stopped before its cancel was sent
  ASSERT_TRUE(backend_->recover(now_));
  queue_.posted.clear();
  step();
  run_ends_cancelled();
  EXPECT_EQ(job(id).state, JobState::Pending);
  EXPECT_EQ(posted("fsub"), 1);
}

TEST_F(IndirectUserRequeue, WhatCannotBeRequeuedIsRefusedNamingWhy) {
  auto pending = submit(spec("waiting"));
  auto r = act(JobAction::Requeue, pending);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("only a running job can"), std::string::npos) << r.error();
  auto s = spec("array");
  s.array = *parse_array_spec("1-2");
  auto head = submit(s);
  step();
  answer_to("fsub", "29\n");  // the pending job
  answer_to("fsub", "30\n");  // the array
  step();
  ASSERT_EQ(job(head).native_id, "30_1");
  ASSERT_TRUE(store_->transition(head, JobState::Running, {}, now_));
  r = act(JobAction::Requeue, head);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("is an element of array " + std::to_string(head) + ", which fake runs as one submission"),
            std::string::npos)
      << r.error();
}

}  // namespace
}  // namespace yard
