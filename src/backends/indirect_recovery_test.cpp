// The indirect engine after a crash of the daemon (indirect_testing.h): a job whose
// submission may have happened is looked up by its UID in the queue, then the history,
// and submitted only if the scheduler never had it.
#include "backends/indirect_testing.h"

namespace yard {
namespace {

using namespace indirect_testing;  // NOLINT: the bench of this test

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

}  // namespace
}  // namespace yard
