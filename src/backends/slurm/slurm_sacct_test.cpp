// sacct -P output as captured from a real Slurm (tests/fixtures/slurm/): states, exit
// codes and signals, arrays, het jobs, requeues, look-ups by name, malformed text.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>

#include "backends/slurm/fixtures_for_tests.h"
#include "backends/slurm/slurm_parse.h"
#include "backends/native_names.h"
#include "backends/slurm/slurm_states.h"

namespace yard {
namespace {

using namespace slurm_testing;  // NOLINT: the parse tests' fixture

TEST_F(SlurmParse, SacctCompleted) {
  auto v = sacct("sacct_completed.out");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].native_id, "2");
  EXPECT_EQ(v[0].raw_state, "COMPLETED");
  EXPECT_EQ(v[0].exit_code, 0);
  EXPECT_FALSE(v[0].signal);
  // 2026-11-23T00:55:14 UTC
  EXPECT_EQ(v[0].start_time, 1795395314.0);
  EXPECT_EQ(v[0].end_time, 1795395314.0);
  EXPECT_EQ(v[0].node_list, "c1");
  EXPECT_EQ(v[0].name, "plain");
  EXPECT_EQ(map_slurm_state(v[0]).state, JobState::Completed);
}

TEST_F(SlurmParse, SacctExitCodeAndSignal) {
  auto e = sacct("sacct_failed_exit3.out");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].exit_code, 3);
  EXPECT_FALSE(e[0].signal);
  EXPECT_EQ(map_slurm_state(e[0]).state, JobState::Failed);
  EXPECT_EQ(map_slurm_state(e[0]).detail, "exit code 3");
  auto s = sacct("sacct_failed_signal9.out");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].signal, 9);
  EXPECT_FALSE(s[0].exit_code);
  EXPECT_EQ(map_slurm_state(s[0]).detail, "signal 9");
  // Without cgroups, over memory is a plain kill -9: never OUT_OF_MEMORY here.
  auto m = sacct("sacct_over_memory.out");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].signal, 9);
  EXPECT_EQ(map_slurm_state(m[0]).state, JobState::Failed);
  EXPECT_EQ(m[0].end_time, 1795395315.0);
}

TEST_F(SlurmParse, SacctCancelled) {
  for (auto f : {"sacct_cancelled_running.out", "sacct_cancelled_pending.out", "sacct_cancelled_completing.out",
                 "sacct_suspended_then_cancelled.out"}) {
    auto v = sacct(f);
    ASSERT_EQ(v.size(), 1u) << f;
    EXPECT_EQ(v[0].raw_state, "CANCELLED by 0") << f;
    EXPECT_EQ(map_slurm_state(v[0]).state, JobState::Cancelled) << f;
    EXPECT_EQ(map_slurm_state(v[0]).detail, "by uid 0") << f;
  }
  auto p = sacct("sacct_cancelled_pending.out");
  EXPECT_EQ(p[0].node_list, "");  // "None assigned"
  EXPECT_EQ(p[0].name, "held");
  EXPECT_EQ(sacct("sacct_cancelled_running.out")[0].native_id, "8");
  EXPECT_EQ(sacct("sacct_cancelled_completing.out")[0].native_id, "19");
  EXPECT_EQ(sacct("sacct_suspended_then_cancelled.out")[0].node_list, "c2");
}

TEST_F(SlurmParse, SacctTimeoutAndNodeFail) {
  auto t = sacct("sacct_timeout.out");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(map_slurm_state(t[0]).state, JobState::Timeout);
  EXPECT_EQ(*t[0].end_time - *t[0].start_time, 89.0);  // 00:01:29
  auto n = sacct("sacct_node_fail.out");
  ASSERT_EQ(n.size(), 1u);
  EXPECT_EQ(n[0].native_id, "24");
  EXPECT_EQ(map_slurm_state(n[0]).state, JobState::NodeFail);
  EXPECT_EQ(n[0].node_list, "c2");
}

TEST_F(SlurmParse, SacctArraysAndHetJobs) {
  auto a = sacct("sacct_array.out");
  ASSERT_EQ(a.size(), 5u);
  for (int i = 1; i <= 5; ++i) {
    auto* s = find(a, "11_" + std::to_string(i));
    ASSERT_TRUE(s) << i;
    EXPECT_EQ(s->raw_state, "COMPLETED");
    EXPECT_EQ(s->name, "arr");
  }
  auto held = sacct("sacct_array_cancelled_pending.out");
  ASSERT_EQ(held.size(), 1u);
  EXPECT_EQ(held[0].native_id, "12_[0-3]");
  EXPECT_EQ(map_slurm_state(held[0]).state, JobState::Cancelled);
  auto h = sacct("sacct_hetjob.out");
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0].native_id, "13+0");
  EXPECT_EQ(h[1].native_id, "13+1");
  EXPECT_EQ(h[1].node_list, "g1");
}

TEST_F(SlurmParse, SacctPendingAndSuspended) {
  auto p = sacct("sacct_pending_dependency.out");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(map_slurm_state(p[0]).state, JobState::Pending);
  EXPECT_FALSE(p[0].start_time);  // Unknown
  EXPECT_FALSE(p[0].end_time);
  EXPECT_EQ(p[0].node_list, "");
  auto s = sacct("sacct_suspended.out");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(map_slurm_state(s[0]).state, JobState::Running);
  EXPECT_TRUE(s[0].start_time);
  EXPECT_FALSE(s[0].end_time);
  EXPECT_EQ(s[0].name, "allocation");  // sacct's quirk while suspended
}

TEST_F(SlurmParse, SacctRequeuedRunsBothParse) {
  auto v = sacct("sacct_requeued_then_cancelled.out");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(map_slurm_state(v[0]).state, JobState::Pending);
  EXPECT_EQ(map_slurm_state(v[0]).detail, "REQUEUED");
  EXPECT_EQ(map_slurm_state(v[1]).state, JobState::Cancelled);
}

TEST_F(SlurmParse, SacctManyJobs) {
  auto v = sacct("sacct_jobs.out");
  ASSERT_EQ(v.size(), 24u);
  EXPECT_EQ(find(v, "1")->raw_state, "TIMEOUT");
  EXPECT_EQ(find(v, "10")->raw_state, "PENDING");
  EXPECT_EQ(find(v, "15")->exit_code, 1);
  EXPECT_EQ(map_slurm_state(*find(v, "15")).state, JobState::Failed);
  EXPECT_EQ(find(v, "21")->raw_state, "CANCELLED by 0");
  EXPECT_EQ(sacct("sacct_window.out").size(), 20u);
  EXPECT_TRUE(sacct("sacct_unknown.out").empty());
}

// The look-up after a crash (sacct --name=... -S ...): an ended job with its exit code,
// a running one, and nothing for a name that never reached Slurm; the UIDs come back
// from the names.
TEST_F(SlurmParse, SacctFindByNameGivesIdsStatesAndUids) {
  auto v = sacct("sacct_find_by_name.out");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].native_id, "7");
  EXPECT_EQ(v[0].raw_state, "FAILED");
  EXPECT_EQ(v[0].exit_code, 3);
  EXPECT_EQ(v[0].name, "yard-yd00000000000000a1-ended");
  EXPECT_EQ(map_slurm_state(v[0]).state, JobState::Failed);
  EXPECT_EQ(v[1].native_id, "8");
  EXPECT_EQ(map_slurm_state(v[1]).state, JobState::Running);
  EXPECT_EQ(uid_from_native_job_name(v[0].name), "yd00000000000000a1");
  EXPECT_EQ(uid_from_native_job_name(v[1].name), "yd00000000000000a2");
}

TEST_F(SlurmParse, SacctStepFormatIsRefused) {
  auto r = parse_sacct(slurm_fixture("sacct_steps.out"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(),
            "sacct output line 1: expected 9 '|'-separated fields "
            "(JobID|JobIDRaw|State|ExitCode|Start|End|Elapsed|NodeList|JobName), got 8: '7|COMPLETED|0:0||||00:00:06|steps'");
  EXPECT_FALSE(parse_sacct(slurm_fixture("sacct_steps_timeout.out")).ok());
}

TEST_F(SlurmParse, SacctMalformedFields) {
  const std::string ok = "4|4|FAILED|3:0|2026-11-23T00:55:14|2026-11-23T00:55:14|00:00:00|c1|x|y";
  auto r = parse_sacct(ok);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ((*r)[0].name, "x|y");
  auto bad_exit = parse_sacct("4|4|FAILED|3|Unknown|Unknown|00:00:00|c1|x\n");
  ASSERT_FALSE(bad_exit.ok());
  EXPECT_NE(bad_exit.error().find("line 1: ExitCode '3' is not CODE:SIGNAL"), std::string::npos) << bad_exit.error();
  auto bad_time = parse_sacct("\n4|4|FAILED|3:0|yesterday|Unknown|00:00:00|c1|x\n");
  ASSERT_FALSE(bad_time.ok());
  EXPECT_NE(bad_time.error().find("line 2: Start time 'yesterday'"), std::string::npos) << bad_time.error();
  EXPECT_FALSE(parse_sacct("4|x|FAILED|3:0|Unknown|Unknown|00:00:00|c1|x\n").ok());
  EXPECT_FALSE(parse_sacct("4|4|FAILED|3:0|2026-13-23T00:55:14|Unknown|00:00:00|c1|x\n").ok());
  EXPECT_FALSE(parse_sacct("4|4|FAILED|-3:0|Unknown|Unknown|00:00:00|c1|x\n").ok());
}

TEST_F(SlurmParse, TimesAreLocal) {
  EXPECT_EQ(**parse_slurm_time("1970-01-01T00:00:00"), 0.0);
  EXPECT_FALSE(*parse_slurm_time("None"));
  EXPECT_FALSE(*parse_slurm_time("Unknown"));
  ::setenv("TZ", "Europe/Paris", 1);
  ::tzset();
  EXPECT_EQ(**parse_slurm_time("2026-11-23T01:55:14"), 1795395314.0);  // CET = UTC+1
  EXPECT_EQ(**parse_slurm_time("2026-07-01T02:00:00"), 1782864000.0);  // CEST = UTC+2
}

}  // namespace
}  // namespace yard
