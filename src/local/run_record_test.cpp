#include "local/run_record.h"

#include <gtest/gtest.h>

namespace yard {

TEST(RunRecord, OutcomeOnlyOnceDone) {
  auto r = parse_run_record("supervisor_pid=10\njob_pid=11\n");
  EXPECT_EQ(r.supervisor_pid, 10);
  EXPECT_EQ(r.job_pid, 11);
  EXPECT_FALSE(r.outcome.has_value());
  RunOutcome o;
  o.state = JobState::Timeout;
  o.exit_code = 143;
  o.signal = 15;
  o.max_rss_bytes = 1234;
  o.reason = "walltime\nexceeded";
  r = parse_run_record("supervisor_pid=10\njob_pid=11\n" + format_outcome(o));
  ASSERT_TRUE(r.outcome.has_value());
  EXPECT_EQ(r.outcome->state, JobState::Timeout);
  EXPECT_EQ(r.outcome->exit_code, 143);
  EXPECT_EQ(r.outcome->signal, 15);
  EXPECT_EQ(r.outcome->max_rss_bytes, 1234);
  EXPECT_EQ(r.outcome->reason, "walltime exceeded");
}

TEST(RunRecord, RequeueIsRecordedAsPending) {
  RunOutcome o;
  o.state = JobState::Pending;  // preempted (SIGUSR2): the daemon requeues the job
  o.reason = "preempted";
  auto r = parse_run_record("supervisor_pid=10\n" + format_outcome(o));
  ASSERT_TRUE(r.outcome.has_value());
  EXPECT_EQ(r.outcome->state, JobState::Pending);
  EXPECT_EQ(r.outcome->reason, "preempted");
}

TEST(RunRecord, TornOutcomeIsNotAnOutcome) {
  RunOutcome o;
  std::string text = format_outcome(o);
  text.resize(text.size() - 7);  // "done=1\n" missing: the writer died mid-way
  EXPECT_FALSE(parse_run_record(text).outcome.has_value());
}

TEST(RunRecord, AReusedFileHoldsOnlyTheLastJobsRecord) {
  RunOutcome o;
  o.state = JobState::Completed;
  const std::string first = "job_id=7\nsupervisor_pid=10\njob_pid=11\n" + format_outcome(o);
  auto r = parse_run_record(first + "job_id=8\nsupervisor_pid=10\n");
  EXPECT_EQ(r.job_id, 8);
  EXPECT_EQ(r.supervisor_pid, 10);
  EXPECT_EQ(r.job_pid, 0);                   // not job 7's
  EXPECT_FALSE(r.outcome.has_value());       // job 7's outcome is not job 8's
  EXPECT_EQ(parse_run_record(first).job_id, 7);
}

}  // namespace yard
