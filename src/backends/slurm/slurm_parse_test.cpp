#include "backends/slurm/slurm_parse.h"
#include "backends/slurm/fixtures_for_tests.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "backends/native_names.h"
#include "backends/slurm/slurm_states.h"

namespace yard {
namespace {

namespace fs = std::filesystem;
using namespace slurm_testing;  // NOLINT: the parse tests' fixture


TEST_F(SlurmParse, EveryFixtureFileIsKnown) {
  const std::set<std::string> known{
      "README.md", "capture.sh", "hetjob.sbatch",
      "sbatch_parsable.out", "sbatch.out", "sbatch_parsable_array.out", "sbatch_parsable_hetjob.out",
      "sbatch_reject_gres.out", "sbatch_reject_gres.stderr", "sbatch_reject_gres.rc",
      "sbatch_reject_partition.out", "sbatch_reject_partition.stderr", "sbatch_reject_partition.rc",
      "sbatch_reject_ntasks.out", "sbatch_reject_ntasks.stderr", "sbatch_reject_ntasks.rc",
      "sbatch_reject_time.out", "sbatch_reject_time.stderr", "sbatch_reject_time.rc",
      "sbatch_controller_down.out", "sbatch_controller_down.stderr", "sbatch_controller_down.rc",
      "sbatch_config_unreachable.stderr",
      "squeue.out", "squeue_r.out", "squeue_all_states.out", "squeue_jobs.out",
      "squeue_jobs_with_unknown.out", "squeue_unknown.out", "squeue_unknown.stderr", "squeue_unknown.rc",
      "squeue_long.out", "squeue_after_cancel.out", "squeue_completing.out", "squeue_suspended.out",
      "squeue_requeued_completing.out", "squeue_requeued_pending.out", "squeue_after_restart.out",
      "squeue_controller_down.out", "squeue_controller_down.stderr", "squeue_controller_down.rc",
      "sacct_suspended.out", "sacct_completed.out", "sacct_failed_exit3.out", "sacct_failed_signal9.out",
      "sacct_over_memory.out", "sacct_cancelled_running.out", "sacct_cancelled_pending.out",
      "sacct_cancelled_completing.out", "sacct_timeout.out", "sacct_array.out",
      "sacct_array_cancelled_pending.out", "sacct_hetjob.out", "sacct_pending_dependency.out",
      "sacct_steps.out", "sacct_steps_timeout.out", "sacct_suspended_then_cancelled.out",
      "sacct_requeued_then_cancelled.out", "sacct_unknown.out", "sacct_node_fail.out", "sacct_jobs.out",
      "sacct_window.out", "sacct_find_by_name.out", "capture_extra.sh", "scancel_unknown.out", "scancel_controller_down.out",
      "scancel_controller_down.stderr", "scancel_controller_down.rc",
      // slurm_allocation_test.cpp
      "scontrol_job_two_nodes.out", "scontrol_job_gpus.out", "scontrol_job_het.out", "scontrol_job_pending.out",
      "scontrol_job_unknown.out", "scontrol_job_unknown.stderr", "scontrol_job_unknown.rc",
      // slurm_partitions_test.cpp
      "scontrol_show_partition_oneliner.txt"};
  for (auto& e : fs::directory_iterator(YARD_SLURM_FIXTURES))
    EXPECT_TRUE(known.count(e.path().filename().string())) << "new fixture without a test: " << e.path();
}

// Every squeue capture in the '|' format parses; every line maps to a known state.
TEST_F(SlurmParse, EverySqueueFixtureParses) {
  for (auto& e : fs::directory_iterator(YARD_SLURM_FIXTURES)) {
    const auto f = e.path().filename().string();
    if (f.rfind("squeue", 0) != 0 || e.path().extension() != ".out" || f == "squeue_long.out") continue;
    for (auto& s : squeue(f)) EXPECT_NE(map_slurm_state(s).state, JobState::Unknown) << f << ": " << s.raw_state;
  }
}

// Every sacct capture with the allocation format parses and maps to a known state.
TEST_F(SlurmParse, EverySacctFixtureParses) {
  for (auto& e : fs::directory_iterator(YARD_SLURM_FIXTURES)) {
    const auto f = e.path().filename().string();
    if (f.rfind("sacct", 0) != 0 || f.rfind("sacct_steps", 0) == 0) continue;
    for (auto& s : sacct(f)) EXPECT_NE(map_slurm_state(s).state, JobState::Unknown) << f << ": " << s.raw_state;
  }
}

// ---- sbatch ----

TEST_F(SlurmParse, SbatchParsable) {
  EXPECT_EQ(*parse_sbatch_parsable(slurm_fixture("sbatch_parsable.out")), "2");
  EXPECT_EQ(*parse_sbatch_parsable(slurm_fixture("sbatch_parsable_array.out")), "11");
  // A het job is submitted as one: its components are 13+0 and 13+1 later.
  EXPECT_EQ(*parse_sbatch_parsable(slurm_fixture("sbatch_parsable_hetjob.out")), "13");
  EXPECT_EQ(*parse_sbatch_parsable("42;cluster2\n"), "42");
}

TEST_F(SlurmParse, SbatchWithoutParsableIsAnErrorQuotingTheText) {
  auto r = parse_sbatch_parsable(slurm_fixture("sbatch.out"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("'Submitted batch job 3'"), std::string::npos) << r.error();
}

TEST_F(SlurmParse, SbatchRejectionsPrintNothingOnStdout) {
  for (auto f : {"sbatch_reject_gres.out", "sbatch_reject_partition.out", "sbatch_reject_ntasks.out",
                 "sbatch_reject_time.out", "sbatch_controller_down.out"}) {
    auto r = parse_sbatch_parsable(slurm_fixture(f));
    ASSERT_FALSE(r.ok()) << f;
    EXPECT_NE(r.error().find("no job id"), std::string::npos) << r.error();
  }
  EXPECT_EQ(slurm_fixture("sbatch_reject_time.rc"), "255\n");
  EXPECT_EQ(slurm_fixture("sbatch_reject_gres.rc"), "1\n");
}

TEST_F(SlurmParse, SbatchGarbage) {
  EXPECT_FALSE(parse_sbatch_parsable("12\n13\n").ok());
  EXPECT_FALSE(parse_sbatch_parsable("abc").ok());
  EXPECT_FALSE(parse_sbatch_parsable(";cluster").ok());
  EXPECT_FALSE(parse_sbatch_parsable("-1").ok());
}

// ---- squeue ----

TEST_F(SlurmParse, SqueueDefault) {
  auto v = squeue("squeue.out");
  ASSERT_EQ(v.size(), 13u);
  EXPECT_EQ(v[0].native_id, "10");
  EXPECT_EQ(v[0].raw_state, "PENDING");
  EXPECT_EQ(v[0].reason, "Dependency");
  EXPECT_EQ(v[0].name, "dep-on-running");
  auto* collapsed = find(v, "11_[3-5%2]");
  ASSERT_TRUE(collapsed);
  EXPECT_EQ(collapsed->reason, "JobArrayTaskLimit");
  auto* never = find(v, "18");
  ASSERT_TRUE(never);
  EXPECT_EQ(map_slurm_state(*never).state, JobState::Pending);
  EXPECT_EQ(map_slurm_state(*never).detail, "reason DependencyNeverSatisfied");
  auto* running = find(v, "1");
  ASSERT_TRUE(running);
  EXPECT_EQ(running->raw_state, "RUNNING");
  EXPECT_EQ(running->reason, "");  // "None"
  ASSERT_TRUE(find(v, "13+0"));
  ASSERT_TRUE(find(v, "13+1"));
}

TEST_F(SlurmParse, SqueueExpandedArrays) {
  auto v = squeue("squeue_r.out");
  ASSERT_EQ(v.size(), 18u);
  for (auto id : {"11_1", "11_2", "11_3", "11_4", "11_5", "12_0", "12_1", "12_2", "12_3"})
    EXPECT_TRUE(find(v, id)) << id;
  EXPECT_EQ(find(v, "12_2")->reason, "JobHeldUser");
  EXPECT_EQ(find(v, "11_5")->raw_state, "PENDING");
  for (auto& s : v) EXPECT_EQ(s.native_id.find('['), std::string::npos);
}

TEST_F(SlurmParse, SqueueAllStatesKeepsFinishedJobsAndTheirReasons) {
  auto v = squeue("squeue_all_states.out");
  ASSERT_EQ(v.size(), 18u);
  EXPECT_EQ(find(v, "2")->raw_state, "COMPLETED");
  EXPECT_EQ(map_slurm_state(*find(v, "2")).state, JobState::Completed);
  EXPECT_EQ(find(v, "4")->reason, "NonZeroExitCode");
  EXPECT_EQ(map_slurm_state(*find(v, "4")).state, JobState::Failed);
  EXPECT_EQ(find(v, "5")->reason, "JobLaunchFailure");
  EXPECT_EQ(find(v, "15")->reason, "BadConstraints");
  EXPECT_EQ(find(v, "15")->name, "wrap");
}

TEST_F(SlurmParse, SqueueAfterCancel) {
  auto v = squeue("squeue_after_cancel.out");
  ASSERT_EQ(v.size(), 18u);
  EXPECT_EQ(map_slurm_state(*find(v, "8")).state, JobState::Cancelled);
  EXPECT_EQ(map_slurm_state(*find(v, "9")).state, JobState::Cancelled);
  EXPECT_EQ(map_slurm_state(*find(v, "12_[0-3]")).state, JobState::Cancelled);
  // Its parent was cancelled: the afterok can never be met.
  EXPECT_EQ(find(v, "10")->reason, "DependencyNeverSatisfied");
}

TEST_F(SlurmParse, SqueueRestrictedToIds) {
  auto v = squeue("squeue_jobs.out");
  ASSERT_EQ(v.size(), 8u);
  EXPECT_TRUE(find(v, "9"));
  EXPECT_TRUE(find(v, "18"));
  auto u = squeue("squeue_jobs_with_unknown.out");
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].native_id, "8");
  EXPECT_EQ(u[0].name, "cancelme");
}

TEST_F(SlurmParse, SqueueFailuresPrintNothing) {
  // rc 1 with the message on stderr: the runner reports those; stdout is empty.
  EXPECT_TRUE(squeue("squeue_unknown.out").empty());
  EXPECT_EQ(slurm_fixture("squeue_unknown.stderr"), "slurm_load_jobs error: Invalid job id specified\n");
  EXPECT_TRUE(squeue("squeue_controller_down.out").empty());
  EXPECT_EQ(slurm_fixture("squeue_controller_down.rc"), "1\n");
}

TEST_F(SlurmParse, SqueueTransientStates) {
  auto c = squeue("squeue_completing.out");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(map_slurm_state(c[0]).state, JobState::Running);
  EXPECT_EQ(map_slurm_state(c[0]).detail, "COMPLETING");
  auto s = squeue("squeue_suspended.out");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(map_slurm_state(s[0]).state, JobState::Running);
  EXPECT_EQ(map_slurm_state(s[0]).detail, "SUSPENDED");
  auto rc = squeue("squeue_requeued_completing.out");
  ASSERT_EQ(rc.size(), 1u);
  EXPECT_EQ(rc[0].native_id, "21");
  EXPECT_EQ(map_slurm_state(rc[0]).state, JobState::Running);
  auto rp = squeue("squeue_requeued_pending.out");
  ASSERT_EQ(rp.size(), 1u);
  EXPECT_EQ(map_slurm_state(rp[0]).state, JobState::Pending);
  EXPECT_EQ(map_slurm_state(rp[0]).detail, "reason BeginTime");
}

TEST_F(SlurmParse, SqueueAfterRestartShowsTheRequeuedNodeFailJob) {
  auto v = squeue("squeue_after_restart.out");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(find(v, "24")->raw_state, "PENDING");
  EXPECT_EQ(find(v, "24")->reason, "BeginTime");
}

TEST_F(SlurmParse, SqueueLongFormatIsRefusedWithLineNumberAndText) {
  auto r = parse_squeue(slurm_fixture("squeue_long.out"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("squeue output line 1: expected 4 '|'-separated fields"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("JOBID PARTITION"), std::string::npos) << r.error();
}

TEST_F(SlurmParse, SqueueNameMayContainBars) {
  auto r = parse_squeue("\n7|RUNNING|None|a|b||c\n\n");
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].name, "a|b||c");
  EXPECT_EQ((*r)[0].reason, "");
}

TEST_F(SlurmParse, SqueueMalformedLines) {
  auto r = parse_squeue("7|RUNNING|None|ok\n8|RUNNING\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "squeue output line 2: expected 4 '|'-separated fields (id|state|reason|name), got 2: '8|RUNNING'");
  EXPECT_FALSE(parse_squeue("x7|RUNNING|None|n\n").ok());
  EXPECT_FALSE(parse_squeue("7||None|n\n").ok());
  EXPECT_FALSE(parse_squeue("7_|RUNNING|None|n\n").ok());
  EXPECT_FALSE(parse_squeue("7+|RUNNING|None|n\n").ok());
  EXPECT_FALSE(parse_squeue("7_[a]|RUNNING|None|n\n").ok());
}

// ---- sacct ----

}  // namespace
}  // namespace yard
