// On a scripted scheduler (indirect_testing.h): `yard hold` of a job yard has not submitted
// yet (it waits on a parent the scheduler cannot express, on a throttle, or was just
// submitted) is yard's own: nothing is sent, the job is not submitted while held, and a
// release submits it; the same after a restart, and for a held job moved here. An array
// not submitted yet is held or released whole. Jobs in the queue are held by the
// scheduler's command, one command per job where it takes one at a time.
#include "backends/indirect_testing.h"

namespace yard {
namespace {

using namespace indirect_testing;  // NOLINT: the bench of this test

class IndirectHold : public IndirectTest {
 protected:
  Result<std::vector<std::int64_t>> act(JobAction action, std::vector<std::int64_t> ids) {
    JobQuery q;
    q.ids = ids;
    auto jobs = store_->find(q);
    EXPECT_TRUE(jobs) << jobs.error();
    return backend_->act(action, ids, *jobs, now_);
  }
};

TEST_F(IndirectHold, AJobNotSubmittedYetIsHeldByYardAndSubmittedOnceReleased) {
  auto id = submit(spec());
  auto held = act(JobAction::Hold, {id});
  ASSERT_TRUE(held) << held.error();
  EXPECT_EQ(*held, std::vector<std::int64_t>{id});
  EXPECT_TRUE(job(id).held);
  for (int i = 0; i < 3; ++i) {
    step();
    now_ += 100;
  }
  EXPECT_EQ(posted("fsub"), 0) << "a held job was submitted";
  EXPECT_EQ(job(id).state, JobState::Pending);
  EXPECT_NE(job(id).reason.find("yard hold"), std::string::npos) << job(id).reason;
  // A release submits it.
  ASSERT_TRUE(act(JobAction::Release, {id}));
  EXPECT_FALSE(job(id).held);
  step();
  EXPECT_EQ(posted("fsub"), 1);
}

TEST_F(IndirectHold, ARestartedDaemonKeepsTheUnsubmittedJobHeld) {
  auto id = submit(spec());
  ASSERT_TRUE(act(JobAction::Hold, {id}));
  make_backend();
  ASSERT_TRUE(backend_->recover(now_));
  step();
  now_ += 100;
  step();
  EXPECT_EQ(posted("fsub"), 0);
  ASSERT_TRUE(act(JobAction::Release, {id}));
  step();
  EXPECT_EQ(posted("fsub"), 1);
}

TEST_F(IndirectHold, AHeldJobMovedHereIsKeptUntilReleased) {
  JobSpec s = spec();
  s.backend = "local";
  auto inserted = store_->insert_jobs(s, now_);
  ASSERT_TRUE(inserted) << inserted.error();
  const auto id = inserted->front();
  ASSERT_TRUE(store_->set_held(id, true, "held (yard hold)", now_));
  ASSERT_TRUE(backend_->adopt(job(id)));
  step();
  EXPECT_EQ(posted("fsub"), 0) << "a held job was submitted";
  ASSERT_TRUE(act(JobAction::Release, {id}));
  step();
  EXPECT_EQ(posted("fsub"), 1);
}

TEST_F(IndirectHold, AnArrayNotSubmittedYetIsHeldWhole) {
  JobSpec s = spec();
  s.array = parse_array_spec("1-3").value();
  const std::int64_t array = submit(s);  // the array's id, also its first element's
  auto one = act(JobAction::Hold, {array + 1});  // one element alone: refused, nothing held
  ASSERT_FALSE(one);
  EXPECT_NE(one.error().find("the array (" + std::to_string(array) + ")"), std::string::npos) << one.error();
  EXPECT_FALSE(job(array + 1).held);
  auto all = act(JobAction::Hold, {array});
  ASSERT_TRUE(all) << all.error();
  EXPECT_EQ(all->size(), 3u);
  step();
  EXPECT_EQ(posted("fsub"), 0);
  ASSERT_TRUE(act(JobAction::Release, {array}));
  step();
  EXPECT_EQ(posted("fsub"), 1);
}

TEST_F(IndirectHold, JobsInTheQueueAreHeldOneCommandEachWhereTheSchedulerTakesOneAtATime) {
  dialect_.holds = true;
  dialect_.one_at_a_time = true;
  make_backend();
  std::vector<std::int64_t> ids;
  for (const char* native : {"7", "8"}) {
    ids.push_back(submit(spec()));
    step();
    answer_to("fsub", std::string(native) + "\n");
    step();
  }
  while (!queue_.posted.empty()) queue_.answer("");  // the listings: nothing to say
  auto held = act(JobAction::Hold, ids);
  ASSERT_TRUE(held) << held.error();
  step();
  ASSERT_EQ(posted("fhold"), 2);
  EXPECT_EQ(answer_to("fhold", "").argv, (std::vector<std::string>{"fhold", "7"}));
  // The scheduler refuses the second: only that job's flag is put back, its event saying why.
  auto refused = std::find_if(queue_.posted.begin(), queue_.posted.end(), [](const Command& c) { return c.argv[0] == "fhold"; });
  ASSERT_NE(refused, queue_.posted.end());
  EXPECT_EQ(refused->argv, (std::vector<std::string>{"fhold", "8"}));
  std::rotate(queue_.posted.begin(), refused, std::next(refused));
  queue_.answer("", 1, "fhold: job 8 started");
  step();
  EXPECT_TRUE(job(ids[0]).held);
  EXPECT_FALSE(job(ids[1]).held);
  auto events = store_->events_after(0, 1000);
  ASSERT_TRUE(events) << events.error();
  EXPECT_EQ(events->back().job_id, ids[1]);  // its event says what the scheduler said
  EXPECT_NE(events->back().event.detail.find("job 8 started"), std::string::npos) << events->back().event.detail;
}

}  // namespace
}  // namespace yard
