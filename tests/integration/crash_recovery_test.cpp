// A crash of the daemon (SIGKILL, mid-run) loses no job, runs none twice, and keeps
// every finished job's true exit code: supervisors outlive the daemon and a new daemon
// adopts them.
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
  for (int i = 0; i < 100; ++i)
    ids.push_back(submit({"--", "sh", "-c",
                          "echo $YARD_JOB_ID >> ran.log; sleep 0.$((YARD_JOB_ID % 4)); exit $((YARD_JOB_ID % 4))"}));
  long pid = daemon_pid();
  ASSERT_GT(pid, 0);
  // Kill it while jobs run: some finished, some running, most pending.
  ASSERT_TRUE(wait_until([&] {
    auto s = status();
    int running = 0;
    for (auto& j : s) running += j["state"] == "RUNNING";
    return running > 0;
  }, 30));
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 10));
  // Outcomes arriving while no daemon runs must wait for the next one.
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

}  // namespace
}  // namespace yard::test
