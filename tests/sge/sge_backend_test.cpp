// The life-cycle suite (tests/lifecycle) on the real Grid Engine 8.1.9 cell the fixture
// started, submitting as an unprivileged user; its qmaster outage runs as root, in
// sge_outage_test.cpp. Grid Engine holds a job only until another ends (-hold_jid):
// yard judges afterok and afternotok itself, so the dependent of a failed job is never
// submitted.
#include "../lifecycle/lifecycle_world.h"
#include "sge_world.h"

namespace yard::test {
namespace {

const SchedulerUnderTest kSge{
    .backend = "sge",
    .submit_command = "qsub",
    .cancel_command = "qdel",
    .jobid_variable = "JOB_ID",
    .cpus = 4,
    // qacct trails qstat; the test cell flushes its accounting every second.
    .yaml_extra = "accounting_lag: 3\n",
    .walltime_line = "#$ -l h_rt=0:00:02",
    .array = "1-4%2",
    .array_line = "#$ -t 1-4\n#$ -tc 2",
    .afterany_array_line = [](const std::string& base) { return "#$ -hold_jid " + base; },
    .unexpressible = {{"--gpus", "1", "--", "true"}, {"--qos", "high", "--", "true"}, {"-a", "0-3", "--", "true"},
                      {"-p", "a q", "--", "true"}},
    .unknown_queue_words = "Unable to run job: Job was rejected because job requests unknown queue",
    .exit_status = [](const std::string& native) -> std::optional<long> {
      std::istringstream acct(sh("qacct -j " + native + " 2>/dev/null"));
      for (std::string line; std::getline(acct, line);)
        if (line.rfind("exit_status", 0) == 0) return std::stol(line.substr(line.find_first_of("0123456789")));
      return std::nullopt;
    },
    .killed_statuses = {128 + 9, 128 + 15},
    .jobs_named = sge_jobs_named,
    .outage = nullptr,
    .held_there = [](const std::string& native) {
      return sh("qstat -s hu 2>/dev/null").find(" " + native + " ") != std::string::npos;
    },
};

// The qmaster outage needs root, who alone may stop it: sge_outage_test.cpp, as root.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LifeCycleOutageWorld);
INSTANTIATE_TEST_SUITE_P(SgeCell, LifeCycleWorld, ::testing::Values(&kSge), scheduler_name);
INSTANTIATE_TEST_SUITE_P(SgeCell, LifeCycleCrashWorld, ::testing::Values(&kSge), scheduler_name);

// yard hold and release: Grid Engine's user hold (qhold -h u), kept past the end of the
// job the held one waited for, until qrls.
TEST_F(SgeWorld, AHeldJobStaysInTheQueueUntilReleased) {
  long gate = sge_submit({"--", "sh", "-c", "while [ ! -e open ]; do sleep 0.1; done"});
  long held = sge_submit({"-d", "afterany:" + std::to_string(gate), "--", "touch", "held-ran"});
  ASSERT_TRUE(wait_until([&] { return !job(held)["native_id"].is_null(); }, 60)) << diag();
  auto r = yard({"hold", std::to_string(held)});
  ASSERT_EQ(r.rc, 0) << r.err;
  const std::string native = job(held)["native_id"].get<std::string>();
  // qstat -s hu: the jobs in a user's hold.
  auto user_held = [&] { return sh("qstat -s hu 2>/dev/null").find(" " + native + " ") != std::string::npos; };
  ASSERT_TRUE(wait_until(user_held, 30)) << diag();
  EXPECT_EQ(job(held)["held"], true);
  write("open", "");
  ASSERT_EQ(wait({gate}), 0) << diag();
  EXPECT_TRUE(user_held()) << diag();
  EXPECT_EQ(job(held)["state"], "PENDING");
  r = yard({"requeue", std::to_string(held)});  // Grid Engine requeues nothing a user asks
  EXPECT_EQ(r.rc, 2);
  r = yard({"release", std::to_string(held)});
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(wait({held}), 0) << diag();
  EXPECT_TRUE(fs::exists(dir_ + "/held-ran"));
}

// yard routes move: Grid Engine has no delete that spares a started job; a job waiting in
// its queue is held first, and deleted once a listing after the hold shows it waiting.
TEST_F(SgeWorld, AJobWaitingInTheQueueLeavesItForTheLocalMachineThroughAHold) {
  long gate = sge_submit({"--", "sh", "-c", "while [ ! -e open ]; do sleep 0.1; done"});
  long queued = sge_submit({"-d", "afterany:" + std::to_string(gate), "-o", "q.out", "--", "sh", "-c",
                            "echo ran on ${JOB_ID:-the local machine}"});
  ASSERT_TRUE(wait_until([&] { return job(queued)["native_id"].is_string(); }, 60)) << diag();
  ASSERT_TRUE(wait_state(gate, "RUNNING")) << diag();  // it stays: only waiting jobs move
  const std::string native = job(queued)["native_id"].get<std::string>();
  Output o = yard({"routes", "move", "sge", "local", "--json"});
  ASSERT_EQ(o.rc, 0) << o.err;
  auto moves = nlohmann::json::parse(o.out);
  EXPECT_EQ(moves["leaving"], nlohmann::json({queued})) << o.out;
  ASSERT_TRUE(wait_until([&] { return job(queued)["backend"] == "local"; }, 60)) << diag();
  EXPECT_EQ(sh("qstat -u '*' 2>/dev/null").find(" " + native + " "), std::string::npos) << diag();
  EXPECT_EQ(job(queued)["state"], "PENDING");  // its dependency on the gate goes with it
  write("open", "");
  ASSERT_EQ(wait({gate, queued}), 0) << diag();
  EXPECT_EQ(read("q.out"), "ran on the local machine\n");
}

}  // namespace
}  // namespace yard::test
