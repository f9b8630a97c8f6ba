// On a scripted scheduler (indirect_testing.h): a job tried again for the cause its
// record names, with the memory and time of each try, kept off a node it failed on
// twice; its dependents held until it has ended for good; a cause not listed, or tries
// used up, ends it.
#include "backends/indirect_testing.h"

#include "core/retry_policy.h"

namespace yard {
namespace {

using namespace indirect_testing;  // NOLINT: the bench of this test

class IndirectRetry : public IndirectTest {
 protected:
  static std::string script_of(const Command& submit) {
    std::ifstream f(submit.argv.at(1));
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  }
  // A poll cycle in which `native` has left the queue, and its record in the history.
  void ends(const std::string& record) {
    now_ += 10;
    step();
    answer_to("fq", "");
    step();
    answer_to("fh", record);
    step();
  }
  static RetryPolicy policy(int times, std::vector<JobState> on, std::vector<std::int64_t> exit_codes = {}) {
    RetryPolicy p;
    p.times = times;
    p.on = std::move(on);
    p.exit_codes = std::move(exit_codes);
    return p;
  }
};

TEST_F(IndirectRetry, TriedAgainWithMoreMemoryAndTimeOffTheNodeItFailedOnTwice) {
  auto s = spec("sim");
  s.res.mem_bytes = 1ull << 30;
  s.res.walltime_s = 60;
  s.retry = policy(3, {JobState::OutOfMemory, JobState::Timeout});
  s.retry->grow_mem = 2;
  s.retry->grow_time = 2;
  auto sim = submit(s);
  auto after = spec("after");
  after.dependencies = {{DependencyKind::AfterOk, sim}};
  auto child = submit(after);
  step();
  // Only the job itself: its dependent waits for its last try, not its first.
  EXPECT_EQ(posted("fsub"), 1);
  answer_to("fsub", "20\n");
  step();
  EXPECT_NE(job(child).reason.find("waiting for job " + std::to_string(sim) + " to end (it may be tried again)"),
            std::string::npos)
      << job(child).reason;

  ends("20|OUT_OF_MEMORY|0|x|n1\n");
  auto j = job(sim);
  EXPECT_EQ(j.state, JobState::Pending);
  EXPECT_EQ(j.retries, 1);
  EXPECT_EQ(j.native_id, "");
  EXPECT_EQ(j.mem_bytes, 2ll << 30);
  EXPECT_NE(j.reason.find("retry 1/3 after OUT_OF_MEMORY of fake job 20, mem 1G -> 2G, time 00:01:00 -> 00:02:00"),
            std::string::npos)
      << j.reason;
  auto second = answer_to("fsub", "21\n");
  std::string text = script_of(second);
  EXPECT_NE(text.find("# mem 2147483648\n# time 120\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("# avoid"), std::string::npos) << text;
  EXPECT_EQ(job(sim).uid, j.uid);  // found again by the same UID after a crash
  step();
  EXPECT_EQ(job(sim).native_id, "21");

  ends("21|TIMEOUT|0|x|n1\n");
  EXPECT_EQ(job(sim).retries, 2);
  EXPECT_NE(job(sim).reason.find(", not on n1"), std::string::npos) << job(sim).reason;
  text = script_of(answer_to("fsub", "22\n"));
  EXPECT_NE(text.find("# mem 4294967296\n# time 240\n# avoid n1\n"), std::string::npos) << text;
  step();

  ends("22|COMPLETED|0|x|n2\n");
  EXPECT_EQ(job(sim).state, JobState::Completed);
  EXPECT_EQ(job(sim).retries, 2);
  // Now its dependent goes, with nothing left to wait for.
  ASSERT_EQ(posted("fsub"), 1);
  text = script_of(answer_to("fsub", "23\n"));
  EXPECT_EQ(text.find("# after"), std::string::npos) << text;
}

// The daemon stops while a try waits out its backoff: the restarted one waits on, keeps
// the job off the node it failed on twice, and does not take the ended try it finds again
// by the job's UID for the next (nor count it again).
TEST_F(IndirectRetry, ARestartKeepsTheBackoffAndTheNodesToAvoidAndJudgesNoTryTwice) {
  auto s = spec("sim");
  s.retry = policy(3, {JobState::Timeout});
  s.retry->backoff_s = 600;
  auto sim = submit(s);
  step();
  answer_to("fsub", "20\n");
  step();
  ends("20|TIMEOUT|0|x|n1\n");
  EXPECT_EQ(posted("fsub"), 0);  // its backoff
  now_ += 600;
  step();
  answer_to("fsub", "21\n");
  step();
  ends("21|TIMEOUT|0|x|n1\n");
  ASSERT_EQ(job(sim).retries, 2);
  EXPECT_EQ(job(sim).retry_not_before, now_ + 600);

  queue_.posted.clear();
  make_backend();
  ASSERT_TRUE(backend_->recover(now_));
  step();
  answer_to("ffind", "");
  step();
  answer_to("ffindh", "21|TIMEOUT|0|yard-" + uid_of(sim) + "|n1\n20|TIMEOUT|0|yard-" + uid_of(sim) + "|n1\n");
  for (int i = 0; i < 3; ++i) {
    now_ += 100;
    step();
  }
  EXPECT_EQ(posted("fsub"), 0);
  EXPECT_EQ(job(sim).retries, 2);
  EXPECT_EQ(job(sim).state, JobState::Pending);
  now_ += 300;
  step();
  ASSERT_EQ(posted("fsub"), 1);
  const std::string text = script_of(answer_to("fsub", "22\n"));
  EXPECT_NE(text.find("# avoid n1\n"), std::string::npos) << text;
  step();
  EXPECT_EQ(job(sim).native_id, "22");
}

TEST_F(IndirectRetry, ACauseNotListedOrTriesUsedUpEndTheJobAndItsDependents) {
  auto s = spec("flaky");
  s.retry = policy(1, {JobState::Timeout}, {3});
  auto flaky = submit(s);
  auto other = spec("other");
  other.retry = policy(2, {JobState::Timeout});
  auto other_id = submit(other);
  auto after = spec("after");
  after.dependencies = {{DependencyKind::AfterOk, flaky}};
  auto child = submit(after);
  step();
  answer_to("fsub", "30\n");
  answer_to("fsub", "31\n");
  step();
  // Exit 3 is listed: tried again; then exit 3 again, with no try left: FAILED.
  ends("30|FAILED|3|x\n31|FAILED|1|x\n");
  EXPECT_EQ(job(flaky).state, JobState::Pending);
  EXPECT_EQ(job(flaky).retries, 1);
  EXPECT_EQ(job(other_id).state, JobState::Failed);  // exit 1 is no TIMEOUT
  EXPECT_EQ(job(other_id).retries, 0);
  answer_to("fsub", "32\n");
  step();
  ends("32|FAILED|3|x\n");
  EXPECT_EQ(job(flaky).state, JobState::Failed);
  EXPECT_EQ(job(flaky).retries, 1);
  step();
  EXPECT_EQ(job(child).state, JobState::Cancelled);
  EXPECT_EQ(job(child).reason, "DependencyNeverSatisfied");
  EXPECT_EQ(posted("fsub"), 0);
}

}  // namespace
}  // namespace yard
