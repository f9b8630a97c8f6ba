// On a scripted scheduler (indirect_testing.h): a scheduler whose calls fail in a row, or
// for long, is down (routes.yaml then sends new jobs to its fallback); it is probed while
// down even with no job of ours there, and is up at its first answer. A submission it
// refused was answered: only calls that could not reach it count.
#include "backends/indirect_testing.h"

namespace yard {
namespace {

using namespace indirect_testing;  // NOLINT: the bench of this test

using IndirectHealth = IndirectTest;

TEST_F(IndirectHealth, FailedCallsInARowMakeItDownAndItsFirstAnswerUp) {
  config_.down_after_s = 1000;  // the count alone decides here
  make_backend();
  auto id = submit(spec());
  step();
  queue_.answer("7\n");
  now_ += 10;
  step();  // takes the submission, plans a status call
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(posted("fq"), 1);
    EXPECT_EQ(backend_->down_reason(), "") << "after " << i << " failed calls";
    queue_.answer("", 1, "fq: error: Unable to contact the controller\n");
    step();  // takes the failure
    now_ += 60;
    step();  // the next status call, after its backoff
  }
  EXPECT_EQ(backend_->down_reason().rfind("3 failed calls in a row over 120 s, the last: fq: error: Unable to contact", 0), 0u)
      << backend_->down_reason();
  EXPECT_EQ(job(id).state, JobState::Pending);  // judged by nothing while down
  // A job that comes now is held: nothing is sent to a scheduler that does not answer.
  auto later = submit(spec("later"));
  step();
  EXPECT_EQ(posted("fsub"), 0);
  EXPECT_EQ(job(later).reason.rfind("held by yard: fake is down", 0), 0u) << job(later).reason;
  ASSERT_EQ(posted("fq"), 1);  // its status calls go on: they are the probes
  queue_.answer("7|RUNNING|None|yard-" + uid_of(id) + "\n");
  step();
  EXPECT_EQ(backend_->down_reason(), "");
  EXPECT_EQ(job(id).state, JobState::Running);
  now_ += 1;
  step();
  EXPECT_EQ(posted("fsub"), 1);  // up: the held job goes
  EXPECT_EQ(backend_->stats().submit_calls, 2u);  // and none went twice
  EXPECT_EQ(backend_->stats().probe_calls, 0u);
}

TEST_F(IndirectHealth, ADownSchedulerIsProbedWhenNoJobOfOursIsThereToAskAbout) {
  config_.down_after_failures = 1;
  make_backend();
  submit(spec());
  step();
  queue_.answer("", 8, "fsub: try again later\n");  // transient: it could not be reached
  step();
  ASSERT_NE(backend_->down_reason(), "");
  // The job is not there (no native id): its look-ups and submissions are retried, and
  // the scheduler is probed besides, with a listing of everything.
  int probes = 0;
  for (int i = 0; i < 20 && probes < 2; ++i) {
    now_ += 5;
    step();
    while (!queue_.posted.empty()) {
      const Command c = queue_.answer("", 1, "error: Unable to contact the controller\n");
      if (c.argv[0] == "fq") {
        ++probes;
        EXPECT_EQ(c.argv.size(), 1u);
      }
    }
    step();
  }
  ASSERT_EQ(probes, 2);
  EXPECT_EQ(backend_->stats().probe_calls, 2u);
  EXPECT_NE(backend_->down_reason(), "");
  for (int i = 0; i < 20 && posted("fq") == 0; ++i) {
    now_ += 5;
    step();
    while (!queue_.posted.empty() && queue_.posted.front().argv[0] != "fq") queue_.answer("", 1, "error: Unable to contact\n");
  }
  ASSERT_EQ(posted("fq"), 1);
  answer_to("fq", "");
  step();
  EXPECT_EQ(backend_->down_reason(), "");
}

TEST_F(IndirectHealth, CallsFailingForLongAreDownWhateverTheirNumber) {
  config_.down_after_failures = 100;
  config_.down_after_s = 60;
  make_backend();
  auto id = submit(spec());
  step();
  queue_.answer("7\n");
  now_ += 10;
  step();  // a status call
  queue_.answer("", 1, "fq: timed out\n");
  step();  // its failure, the first
  now_ += 61;
  step();  // the next status call
  EXPECT_EQ(backend_->down_reason(), "");  // one failure: not yet
  // Its client says why it gave up on its last line, after lines of detail: the reason is
  // that line, on one line.
  queue_.answer("", 1, "fq: error: looking for the controller\nfq: error: none found\nfq: fatal: gave up\n");
  step();
  EXPECT_NE(backend_->down_reason().find("2 failed calls in a row over 61 s"), std::string::npos)
      << backend_->down_reason();
  EXPECT_TRUE(backend_->down_reason().ends_with("the last: fq: fatal: gave up")) << backend_->down_reason();
  EXPECT_EQ(job(id).state, JobState::Pending);
}

TEST_F(IndirectHealth, ASubmissionTheSchedulerRefusedIsAnAnswer) {
  config_.down_after_failures = 1;
  make_backend();
  auto id = submit(spec());
  step();
  queue_.answer("", 1, "fsub: error: Invalid partition name specified\n");
  step();
  EXPECT_EQ(job(id).state, JobState::Failed);
  EXPECT_EQ(backend_->down_reason(), "");
}

}  // namespace
}  // namespace yard
