// Every process a job starts ends with it, setsid() and double forks included: for the
// end by cancel, by walltime and by the job's own exit, under each process tracking mode
// (local/process_tracking.h), forced through YARD_PROCESS_TRACKING. The cgroup modes need
// root, as the README's test command runs.
#include <signal.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "harness.h"

namespace yard::test {
namespace {

// A daemon's way out of its job: a double fork (the subshell exits at once, so the escapee
// is an orphan) and setsid (a session and process group of its own).
const std::string kEscape = "(setsid sh -c 'echo $$ > escaped.pid.tmp; mv escaped.pid.tmp escaped.pid; exec sleep 300' &); ";

class ProcessTree : public YardWorld, public ::testing::WithParamInterface<std::string> {
 protected:
  void SetUp() override {
    YardWorld::SetUp();
    ASSERT_EQ(yard({"server", "start"}, {"YARD_PROCESS_TRACKING=" + GetParam()}).rc, 0);
  }

  // The escaped process's pid, once the job has written it.
  long escaped() {
    EXPECT_TRUE(wait_until([&] { return !read("escaped.pid").empty(); }, 20));
    const std::string text = read("escaped.pid");
    return text.empty() ? 0 : std::stol(text);
  }

  // The escaped process is where the mode puts it: in a group of the job's own (a cgroup
  // made by the job host) or, under subreaper, in none.
  void expect_tracked_by_mode(long pid) {
    const std::string groups = read_proc(pid);
    if (GetParam() == "cgroup2") {
      EXPECT_NE(groups.find("0::/switchyard-jobs/h"), std::string::npos) << groups;
    } else if (GetParam() == "cgroup1") {
      EXPECT_NE(groups.find(":/switchyard-jobs/h"), std::string::npos) << groups;
      EXPECT_EQ(groups.find("0::/switchyard-jobs/h"), std::string::npos) << groups;
    } else {
      EXPECT_EQ(groups.find("switchyard-jobs"), std::string::npos) << groups;
    }
  }

  static std::string read_proc(long pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/cgroup");
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }
};

TEST_P(ProcessTree, CancelEndsAProcessThatLeftTheJobsSession) {
  long id = submit({"--", "sh", "-c", kEscape + "sleep 300"});
  long pid = escaped();
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(process_alive(pid));
  expect_tracked_by_mode(pid);
  ASSERT_EQ(yard({"cancel", std::to_string(id)}).rc, 0);
  EXPECT_EQ(wait({id}), 1);
  EXPECT_EQ(job(id)["state"], "CANCELLED");
  EXPECT_TRUE(wait_until([&] { return !process_alive(pid); }, 10)) << "escaped process " << pid << " survived";
}

TEST_P(ProcessTree, WalltimeEndsAProcessThatLeftTheJobsSession) {
  long id = submit({"-t", "0:02", "--", "sh", "-c", kEscape + "sleep 300"});
  long pid = escaped();
  ASSERT_GT(pid, 0);
  EXPECT_EQ(wait({id}), 1);
  EXPECT_EQ(job(id)["state"], "TIMEOUT");
  EXPECT_TRUE(wait_until([&] { return !process_alive(pid); }, 10)) << "escaped process " << pid << " survived";
}

TEST_P(ProcessTree, TheJobsEndEndsAProcessThatLeftTheJobsSession) {
  long id = submit({"--", "sh", "-c", kEscape + "while [ ! -s escaped.pid ]; do sleep 0.01; done"});
  long pid = escaped();
  ASSERT_GT(pid, 0);
  EXPECT_EQ(wait({id}), 0);
  EXPECT_EQ(job(id)["state"], "COMPLETED");
  EXPECT_TRUE(wait_until([&] { return !process_alive(pid); }, 10)) << "escaped process " << pid << " survived";
}

TEST_P(ProcessTree, AnotherJobsProcessesAreLeftAlone) {
  // Two jobs, one escapee each; the first one's end takes only its own.
  long first = submit({"--", "sh", "-c", kEscape + "sleep 300"});
  long pid_first = escaped();
  ASSERT_GT(pid_first, 0);
  ASSERT_EQ(::rename((dir_ + "/escaped.pid").c_str(), (dir_ + "/first.pid").c_str()), 0);
  long second = submit({"--", "sh", "-c", kEscape + "sleep 300"});
  long pid_second = escaped();
  ASSERT_GT(pid_second, 0);
  ASSERT_EQ(yard({"cancel", std::to_string(first)}).rc, 0);
  EXPECT_EQ(wait({first}), 1);
  EXPECT_TRUE(wait_until([&] { return !process_alive(pid_first); }, 10));
  EXPECT_TRUE(process_alive(pid_second)) << "the second job's process died with the first job";
  EXPECT_EQ(job(second)["state"], "RUNNING");
}

INSTANTIATE_TEST_SUITE_P(Modes, ProcessTree, ::testing::Values("cgroup2", "cgroup1", "subreaper"),
                         [](const auto& mode) { return mode.param; });

}  // namespace
}  // namespace yard::test
