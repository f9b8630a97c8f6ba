// A crash of the daemon (SIGKILL, mid-run) loses no job, runs none twice, and keeps
// every finished job's true exit code: the job host outlives the daemon and a new daemon
// adopts its jobs. A crash of the job host makes its jobs LOST, never COMPLETED.
#include <signal.h>

#include <map>
#include <sstream>

#include "harness.h"

namespace yard::test {
namespace {

class CrashRecovery : public YardWorld {};

TEST_F(CrashRecovery, SigkillOfTheDaemonWithAHundredJobs) {
  configure("cpus: 8\nkill_grace: 1\n");
  std::vector<long> ids;
  // Every fourth job ends at once; the others hold their CPU until `go` exists, so that
  // however slow the machine, the kill finds jobs finished, running and pending.
  for (int i = 0; i < 100; ++i)
    ids.push_back(submit({"--", "sh", "-c",
                          "echo $YARD_JOB_ID >> ran.log; [ $((YARD_JOB_ID % 4)) = 0 ] || "
                          "while [ ! -e go ]; do sleep 0.05; done; exit $((YARD_JOB_ID % 4))"}));
  long pid = daemon_pid();
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(wait_until([&] {
    int running = 0, ended = 0;
    for (auto& j : status()) {
      running += j["state"] == "RUNNING";
      ended += j["state"] == "COMPLETED" || j["state"] == "FAILED";
    }
    return running == 8 && ended > 0;
  }, 30));
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 10));
  // Outcomes arriving while no daemon runs must wait for the next one.
  write("go", "");
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  ASSERT_NE(daemon_pid(), pid);

  wait(ids);
  std::map<long, int> runs;
  std::istringstream in(read("ran.log"));
  long id;
  while (in >> id) ++runs[id];
  for (long j : ids) {
    EXPECT_EQ(runs[j], 1) << "job " << j << " ran " << runs[j] << " times";
    auto rec = job(j);
    const int code = static_cast<int>(j % 4);
    EXPECT_EQ(rec["state"], code == 0 ? "COMPLETED" : "FAILED") << rec.dump();
    EXPECT_EQ(rec["exit_code"], code) << rec.dump();
  }
}

TEST_F(CrashRecovery, AJobFinishingWhileNoDaemonRunsKeepsItsExitCode) {
  long id = submit({"--", "sh", "-c", "while [ ! -e go ]; do sleep 0.05; done; exit 42"});
  ASSERT_TRUE(wait_until([&] { return job(id)["state"] == "RUNNING"; }, 20));
  long pid = daemon_pid();
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 10));
  write("go", "");
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  EXPECT_EQ(wait({id}), 1);
  EXPECT_EQ(job(id)["state"], "FAILED");
  EXPECT_EQ(job(id)["exit_code"], 42);
}

TEST_F(CrashRecovery, AJobOfTheHostOfAnEarlierDaemonCanBeCancelled) {
  long id = submit({"--", "sh", "-c", "echo $$ > job.pid; exec sleep 300"});
  ASSERT_TRUE(wait_until([&] { return job(id)["state"] == "RUNNING" && !read("job.pid").empty(); }, 20));
  long pid = daemon_pid();
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 10));
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  ASSERT_EQ(job(id)["state"], "RUNNING");  // adopted, still running under the old host
  ASSERT_EQ(yard({"cancel", std::to_string(id)}).rc, 0);
  wait({id});
  EXPECT_EQ(job(id)["state"], "CANCELLED") << job(id).dump();
  const long job_pid = std::stol(read("job.pid"));
  EXPECT_TRUE(wait_until([&] { return !process_alive(job_pid); }, 10));
}

TEST_F(CrashRecovery, AKilledJobHostLeavesItsJobsLostAndANewHostRunsTheNext) {
  // $PPID of the job's shell is the job host.
  long id = submit({"--", "sh", "-c", "echo $$ $PPID > pids; exec sleep 300"});
  ASSERT_TRUE(wait_until([&] { return job(id)["state"] == "RUNNING" && !read("pids").empty(); }, 20));
  long job_pid = 0, host_pid = 0;
  std::istringstream(read("pids")) >> job_pid >> host_pid;
  ASSERT_GT(host_pid, 1);
  ASSERT_NE(host_pid, daemon_pid());
  ASSERT_EQ(::kill(static_cast<pid_t>(host_pid), SIGKILL), 0);
  ASSERT_TRUE(wait_until([&] { return job(id)["state"] == "LOST"; }, 20)) << job(id).dump();
  EXPECT_TRUE(wait_until([&] { return !process_alive(job_pid); }, 10));  // nothing of it runs on
  long next = submit({"--", "sh", "-c", "exit 7"});
  EXPECT_EQ(wait({next}), 1);
  EXPECT_EQ(job(next)["exit_code"], 7) << job(next).dump();
}

}  // namespace
}  // namespace yard::test
