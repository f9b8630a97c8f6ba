// On a scripted scheduler (indirect_testing.h): the limits of the queues routes.yaml
// names are listed at once, then every 10 minutes, and asked again when the routes name
// other queues; a listing that changed what is known counts as new (the routes are checked
// again then); a failed one is said, tried again sooner, and never makes the scheduler
// down, since a listing may fail for a queue the scheduler does not have.
#include "backends/indirect_testing.h"

namespace yard {
namespace {

using namespace indirect_testing;  // NOLINT: the bench of this test

using IndirectQueueLimits = IndirectTest;

TEST_F(IndirectQueueLimits, TheQueuesNamedAreListedAtOnceThenEveryTenMinutes) {
  dialect_.lists_queues = true;
  make_backend();
  step();
  EXPECT_EQ(posted("fqueues"), 0);  // no queue named yet: nothing asked
  backend_->want_queue_limits({"short"});
  EXPECT_EQ(backend_->next_wakeup_s(now_), 0);
  step();
  ASSERT_EQ(posted("fqueues"), 1);
  EXPECT_EQ(backend_->queue_listing().version, 0u);
  queue_.answer("short|3600|16\nlong|86400|0\n");
  step();
  const QueueListing& l = backend_->queue_listing();
  EXPECT_EQ(l.version, 1u);
  EXPECT_TRUE(l.complete);
  EXPECT_EQ(l.queues.at("short"), (QueueLimits{3600, 16, 0}));
  // The same again ten minutes later: nothing new.
  now_ += 599;
  step();
  EXPECT_EQ(posted("fqueues"), 0);
  EXPECT_NEAR(backend_->next_wakeup_s(now_), 1, 0.01);
  now_ += 1;
  step();
  ASSERT_EQ(posted("fqueues"), 1);
  queue_.answer("short|3600|16\nlong|86400|0\n");
  step();
  EXPECT_EQ(backend_->queue_listing().version, 1u);
  // Changed by the site: a new version.
  now_ += 600;
  step();
  ASSERT_EQ(posted("fqueues"), 1);
  queue_.answer("short|1800|16\nlong|86400|0\n");
  step();
  EXPECT_EQ(backend_->queue_listing().version, 2u);
  EXPECT_EQ(backend_->queue_listing().queues.at("short").time_s, 1800);
  // Other queues named: asked at once.
  backend_->want_queue_limits({"short", "long"});
  step();
  EXPECT_EQ(posted("fqueues"), 1);
  EXPECT_EQ(backend_->stats().queue_calls, 4u);
}

TEST_F(IndirectQueueLimits, AFailedListingIsSaidRetriedSoonerAndNeverMakesTheSchedulerDown) {
  dialect_.lists_queues = true;
  config_.down_after_failures = 1;
  make_backend();
  backend_->want_queue_limits({"nosuch"});
  for (int i = 0; i < 3; ++i) {
    step();
    ASSERT_EQ(posted("fqueues"), 1) << i;
    queue_.answer("", 1, "fqueues: error: first line\nfqueues: no such queue 'nosuch'\n");
    step();
    EXPECT_EQ(backend_->down_reason(), "");
    EXPECT_EQ(backend_->queue_listing().problem, "fqueues: no such queue 'nosuch'");
    EXPECT_EQ(backend_->queue_listing().version, 0u);
    now_ += 60;
  }
  step();
  ASSERT_EQ(posted("fqueues"), 1);
  queue_.answer("x|1|1\nunreadable\n");  // output it cannot read: said the same way
  step();
  EXPECT_EQ(backend_->queue_listing().problem, "bad queue line 'unreadable'");
}

TEST_F(IndirectQueueLimits, ASchedulerWithoutAListingIsNeverAsked) {
  make_backend();  // lists_queues false: the dialect has no command
  backend_->want_queue_limits({"short"});
  step();
  EXPECT_EQ(backend_->stats().queue_calls, 0u);
  EXPECT_GT(backend_->next_wakeup_s(now_), 1000);
}

}  // namespace
}  // namespace yard
