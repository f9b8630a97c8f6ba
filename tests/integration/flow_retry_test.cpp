// Retries by cause (docs/WORKFLOWS.md, "Retries"): a step tried again for the cause its
// job ended with, as the local backend recorded it (its cgroup's out-of-memory kill, its
// walltime), with more memory or time each try; an exit code only when listed; what
// needs the step waits for its last try, under the same job id.
#include <signal.h>

#include <thread>

#include "harness.h"

namespace yard::test {
namespace {

class FlowRetry : public YardWorld {};

TEST_F(FlowRetry, AStepIsTriedAgainForAListedCauseWithMoreMemoryOrTime) {
  write("f.yaml",
        "name: retries\n"
        "steps:\n"
        "  - name: hungry\n"  // 60 MB on one line in tail: beyond 32M, within 8 x 32M
        "    mem: 32M\n"
        "    command: head -c 60M /dev/zero | tail -n 1 > /dev/null\n"
        "    retry: {times: 2, on: [OUT_OF_MEMORY], grow: {mem: 8x}}\n"
        "  - name: slow\n"
        "    time: \"0:01\"\n"
        "    command: sleep 1.5\n"
        "    retry: {times: 1, on: [TIMEOUT], grow: {time: 4x}}\n"
        "  - name: flaky\n"  // fails twice with exit 3, then succeeds
        "    command: echo try >> tries; [ $(wc -l < tries) -ge 3 ] || exit 3\n"
        "    retry: {times: 3, exit: [3]}\n"
        "  - name: after\n"
        "    needs: [hungry, slow, flaky]\n"
        "    command: echo after > after.txt\n");
  auto o = yard({"run", "f.yaml"}, {}, 120);
  ASSERT_EQ(o.rc, 0) << o.out << o.err;
  EXPECT_EQ(read("after.txt"), "after\n");
  std::map<std::string, nlohmann::json> by_name;
  for (auto& j : status()) by_name[j["name"]] = j;
  ASSERT_EQ(by_name.size(), 4u);
  EXPECT_EQ(by_name["hungry"]["retries"], 1) << by_name["hungry"].dump();
  EXPECT_EQ(by_name["hungry"]["mem_bytes"], 8 * 32 << 20);
  EXPECT_EQ(by_name["slow"]["retries"], 1);
  EXPECT_EQ(by_name["slow"]["walltime_s"], 4);
  EXPECT_EQ(by_name["flaky"]["retries"], 2);
  for (auto& [name, j] : by_name) EXPECT_EQ(j["state"], "COMPLETED") << name;
  // Each try is in the job's history, with its cause.
  auto history = yard({"watch", "--no-follow", std::to_string(by_name["hungry"]["id"].get<long>())});
  ASSERT_EQ(history.rc, 0) << history.err;
  EXPECT_NE(history.out.find("PENDING (retry 1/2 after OUT_OF_MEMORY"), std::string::npos) << history.out;
  EXPECT_NE(history.out.find("mem 32M -> 256M"), std::string::npos) << history.out;
}

TEST_F(FlowRetry, ACauseNotListedEndsTheStepAndWhatNeedsItNeverRuns) {
  write("f.yaml",
        "steps:\n"
        "  - name: fails\n"
        "    command: echo try >> tries; exit 1\n"
        "    retry: {times: 3, on: [OUT_OF_MEMORY], exit: [137]}\n"
        "  - name: after\n"
        "    needs: [fails]\n"
        "    command: echo after > after.txt\n");
  auto o = yard({"run", "f.yaml"}, {}, 60);
  EXPECT_EQ(o.rc, 1) << o.out << o.err;
  EXPECT_EQ(read("tries"), "try\n");
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/after.txt"));
  // A retry policy that makes no sense is refused with its line.
  write("bad.yaml", "steps:\n  - name: a\n    command: x\n    retry: {times: 2, on: [HUNGRY]}\n");
  o = yard({"run", "bad.yaml"});
  EXPECT_EQ(o.rc, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("bad.yaml:4: retry: unknown cause 'HUNGRY'"), std::string::npos) << o.err;
}

// The daemon stops while a step waits out its retry's backoff: the restarted daemon waits
// on (the backoff's end is in the store), and does not run the step at once.
TEST_F(FlowRetry, ARestartedDaemonWaitsOutTheBackoff) {
  write("f.yaml",
        "steps:\n"
        "  - name: flaky\n"
        "    command: echo try >> tries; exit 3\n"
        "    retry: {times: 1, exit: [3], backoff: 1h}\n");
  const std::string file = dir_ + "/f.yaml";
  auto waiting = [&] {
    auto jobs = status();
    return !jobs.empty() && jobs[0]["name"] == "flaky" && jobs[0]["state"] == "PENDING" && jobs[0]["retries"] == 1;
  };
  {
    // `yard run` follows the flow meanwhile; stopped (and waited for) whatever happens.
    Output run;
    std::thread follower([&] { run = yard({"run", file}, {}, 120); });
    struct Stop {
      std::thread& t;
      const std::string& file;
      ~Stop() {
        if (const long pid = pid_running({"run", file}); pid > 0) ::kill(static_cast<pid_t>(pid), SIGKILL);
        t.join();
      }
    } stop{follower, file};
    ASSERT_TRUE(wait_until(waiting, 60)) << status().dump();
  }
  ASSERT_EQ(yard({"server", "stop"}).rc, 0);
  // The restarted daemon runs a job of its own to its end; the step is still waiting.
  auto o = yard({"submit", "--wait", "-o", "/dev/null", "--", "true"});
  ASSERT_EQ(o.rc, 0) << o.out << o.err;
  EXPECT_TRUE(waiting()) << status().dump();
  EXPECT_EQ(read("tries"), "try\n");
  EXPECT_NE(status()[0]["reason"].get<std::string>().find("retry 1/1 after FAILED (exit 3), in 01:00:00"),
            std::string::npos)
      << status().dump();
}

}  // namespace
}  // namespace yard::test
