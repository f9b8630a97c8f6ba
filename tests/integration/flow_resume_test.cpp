// A flow run again never runs a finished step twice and never submits a running one
// again: after yard run was killed, after the daemon was killed mid-flow, after an input
// was touched; and it runs again what changed, failed or lost its outputs
// (docs/WORKFLOWS.md, "Running a flow again").
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <thread>

#include "harness.h"

namespace yard::test {
namespace {

class FlowResume : public YardWorld {
 protected:
  // How often each step ran: one line per run in ran.log.
  std::map<std::string, int> runs() { return line_counts(read("ran.log")); }
  nlohmann::json flow_status(long id) {
    auto o = yard({"flow", "status", "--json", std::to_string(id)});
    EXPECT_TRUE(o.rc == 0 || o.rc == 1) << o.err;
    try {
      return nlohmann::json::parse(o.out);
    } catch (...) {
      ADD_FAILURE() << o.out << o.err;
      return {};
    }
  }
};

// a waits for the file `go`; three b after it, c after them all.
constexpr const char* kChain =
    "name: chain\n"
    "steps:\n"
    "  - name: a\n"
    "    command: echo a >> ran.log; while [ ! -e go ]; do sleep 0.05; done\n"
    "  - name: b\n"
    "    foreach: [1, 2, 3]\n"
    "    command: echo b{item} >> ran.log\n"
    "    needs: [a]\n"
    "  - name: c\n"
    "    command: echo c >> ran.log\n"
    "    needs: [b]\n";

void expect_each_ran_once(const std::map<std::string, int>& ran) {
  EXPECT_EQ(ran, (std::map<std::string, int>{{"a", 1}, {"b1", 1}, {"b2", 1}, {"b3", 1}, {"c", 1}}));
}

TEST_F(FlowResume, YardRunKilledLeavesTheFlowRunningAndARunAgainSubmitsNothing) {
  write("chain.yaml", kChain);
  // By its whole path: another test may run a chain.yaml of its own meanwhile.
  const std::string file = dir_ + "/chain.yaml";
  Output first;
  std::thread run([&] { first = yard({"run", file}); });
  // Whatever fails below, the run is let end and joined: a thread left joinable would
  // abort the test program and hide the failure.
  struct Joined {
    std::function<void()> end;
    ~Joined() { end(); }
  } joined{[&] {
    write("go", "");
    if (run.joinable()) run.join();
  }};
  ASSERT_TRUE(wait_until([&] { return runs()["a"] == 1; }, 30));
  long pid = 0;
  ASSERT_TRUE(wait_until([&] { return (pid = pid_running({"run", file})) > 0; }, 10))
      << "no yard run process; it printed: " << [&] {
           joined.end();
           return first.out + first.err;
         }();
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
  run.join();
  EXPECT_EQ(first.rc, 137);
  // The flow goes on without it.
  auto flow = flow_status(1);
  EXPECT_EQ(flow["steps"], 5);
  EXPECT_EQ(flow["step_list"][0]["state"], "RUNNING");
  write("go", "");
  auto again = yard({"run", "chain.yaml"});
  ASSERT_EQ(again.rc, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("0 submitted"), std::string::npos) << again.out;
  EXPECT_EQ(again.out.find("submitted a as"), std::string::npos) << again.out;
  expect_each_ran_once(runs());
  EXPECT_EQ(status().size(), 5u);
  // Once more, all done: every step up to date.
  auto done = yard({"run", "chain.yaml"});
  ASSERT_EQ(done.rc, 0) << done.out << done.err;
  EXPECT_NE(done.out.find("0 submitted, 0 running already, 5 up to date"), std::string::npos) << done.out;
  expect_each_ran_once(runs());
  auto list = yard({"flow", "list"});
  ASSERT_EQ(list.rc, 0) << list.err;
  EXPECT_NE(list.out.find("chain"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("COMPLETED"), std::string::npos) << list.out;
}

TEST_F(FlowResume, TheDaemonKilledMidFlowLosesNothingAndRunsNothingTwice) {
  write("chain.yaml", kChain);
  Output first;
  std::thread run([&] { first = yard({"run", "chain.yaml"}); });
  ASSERT_TRUE(wait_until([&] { return runs()["a"] == 1; }, 30));
  const long pid = daemon_pid();
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 10));
  write("go", "");
  run.join();  // yard run starts the daemon again and follows the flow to its end
  ASSERT_EQ(first.rc, 0) << first.out << first.err;
  expect_each_ran_once(runs());
  auto again = yard({"run", "chain.yaml"});
  ASSERT_EQ(again.rc, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("5 up to date"), std::string::npos) << again.out;
  expect_each_ran_once(runs());
}

TEST_F(FlowResume, ATouchedInputRunsNothingAChangedOneItsStepsAndAFailedStepRunsAgain) {
  write("in.txt", "1\n");
  write("f.yaml",
        "name: data\n"
        "steps:\n"
        "  - name: make\n"
        "    inputs: [in.txt]\n"
        "    outputs: [made.txt]\n"
        "    command: echo make >> ran.log; cat in.txt > made.txt\n"
        "  - name: use\n"
        "    inputs: [made.txt]\n"
        "    command: echo use >> ran.log; test -e ok\n"
        "  - name: other\n"
        "    command: echo other >> ran.log\n");
  auto o = yard({"run", "f.yaml"});
  EXPECT_EQ(o.rc, 1) << o.out << o.err;  // use failed: no file ok
  EXPECT_EQ(runs(), (std::map<std::string, int>{{"make", 1}, {"other", 1}, {"use", 1}}));
  // The failed step runs again; what completed does not.
  write("ok", "");
  o = yard({"run", "f.yaml"});
  ASSERT_EQ(o.rc, 0) << o.out << o.err;
  EXPECT_EQ(runs(), (std::map<std::string, int>{{"make", 1}, {"other", 1}, {"use", 2}}));
  // Touched, the same bytes: nothing runs.
  ASSERT_EQ(sh("touch -d '2001-01-01' '" + dir_ + "/in.txt'; echo $?"), "0\n");
  o = yard({"run", "f.yaml"});
  ASSERT_EQ(o.rc, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("3 up to date"), std::string::npos) << o.out;
  auto why = yard({"flow", "why", "f.yaml", "make"});
  ASSERT_EQ(why.rc, 0) << why.err;
  EXPECT_EQ(why.out.rfind("make: up to date (job ", 0), 0u) << why.out;
  // Changed: make and use run again, other does not; flow why says why first.
  write("in.txt", "2\n");
  why = yard({"flow", "why", "f.yaml", "make"});
  ASSERT_EQ(why.rc, 0) << why.err;
  EXPECT_NE(why.out.find("make: would run again:\n  - input " + dir_ + "/in.txt changed since flow 3\n"),
            std::string::npos)
      << why.out;
  why = yard({"flow", "why", "f.yaml", "use"});
  EXPECT_NE(why.out.find("step 'make', which it needs, changed"), std::string::npos) << why.out;
  why = yard({"flow", "why", "f.yaml", "other"});
  EXPECT_EQ(why.out.rfind("other: up to date", 0), 0u) << why.out;
  o = yard({"run", "f.yaml"});
  ASSERT_EQ(o.rc, 0) << o.out << o.err;
  EXPECT_EQ(runs(), (std::map<std::string, int>{{"make", 2}, {"other", 1}, {"use", 3}}));
  EXPECT_EQ(read("made.txt"), "2\n");
  // An output gone: its step runs again, and what follows it.
  std::filesystem::remove(dir_ + "/made.txt");
  o = yard({"run", "f.yaml"});
  ASSERT_EQ(o.rc, 0) << o.out << o.err;
  EXPECT_EQ(runs(), (std::map<std::string, int>{{"make", 3}, {"other", 1}, {"use", 4}}));
  // --rerun names a step of the file, or is refused.
  o = yard({"run", "--rerun", "nosuch", "f.yaml"});
  EXPECT_EQ(o.rc, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("--rerun nosuch: no step of"), std::string::npos) << o.err;
}

TEST_F(FlowResume, AFlowIsCancelledWholeAndShownStepByStep) {
  write("chain.yaml", kChain);
  Output first;
  std::thread run([&] { first = yard({"run", "chain.yaml"}); });
  ASSERT_TRUE(wait_until([&] { return runs()["a"] == 1; }, 30));
  auto cancel = yard({"flow", "cancel", "1"});
  ASSERT_EQ(cancel.rc, 0) << cancel.out << cancel.err;
  EXPECT_NE(cancel.out.find("flow 1: cancelled"), std::string::npos) << cancel.out;
  run.join();
  EXPECT_EQ(first.rc, 1) << first.out << first.err;
  auto shown = yard({"flow", "status", "1"});
  EXPECT_EQ(shown.rc, 1) << shown.out << shown.err;
  EXPECT_NE(shown.out.find("flow 1 (chain, " + dir_ + "/chain.yaml): FAILED"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("CANCELLED"), std::string::npos) << shown.out;
  EXPECT_EQ(runs(), (std::map<std::string, int>{{"a", 1}}));
  auto missing = yard({"flow", "status", "7"});
  EXPECT_NE(missing.rc, 0);
  EXPECT_NE(missing.err.find("no flow 7"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace yard::test
