// The life-cycle suite's world: a yard world (integration/harness.h) whose daemon talks to
// a batch scheduler the CTest fixture started, the scheduler's name and quirks given by
// the suite's parameter (SchedulerUnderTest). Every scheduler folder under tests/ that
// runs the suite instantiates it with its own (e.g. tests/pbs/pbs_stand_in.cpp); its
// binary runs with the scheduler's commands on PATH. Every test has its own HOME, daemon
// and store; the tests run one at a time, and each deletes its jobs when it ends.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "../integration/harness.h"

namespace yard::test {

namespace fs = std::filesystem;

// What the suite needs to know of a scheduler.
struct SchedulerUnderTest {
  std::string backend;           // "pbs"
  std::string submit_command;    // "qsub": the crash tests put a hanging one first on PATH
  std::string cancel_command;    // "qdel", to delete a world's leftovers
  std::string jobid_variable;    // "PBS_JOBID": what a job sees of its native id
  int cpus = 4;                  // how many CPUs the scheduler runs jobs on
  std::string yaml_extra;        // more of the backend's settings file (its own keys)
  // Lines the backend's batch scripts (or their companion files) hold: a walltime of 2 s;
  // the array the suite runs ("1-4%2", or "1-4" where the scheduler cannot limit how many
  // elements run at once) and its line; an afterany on a whole array whose native base id
  // is given.
  std::string walltime_line;
  std::string array;
  std::string array_line;
  std::function<std::string(const std::string& base)> afterany_array_line;
  // Submissions the backend refuses with exit 2, each naming the backend.
  std::vector<std::vector<std::string>> unexpressible;
  // The scheduler's words refusing queue "nosuchq"; empty: it has no queues, and the
  // backend refuses the option itself.
  std::string unknown_queue_words;
  // The scheduler's own record of a job: its exit status, as it prints it; and the
  // statuses it gives a running job it killed on a cancel (PBS: 256 + SIGTERM or SIGKILL).
  std::function<std::optional<long>(const std::string& native_id)> exit_status;
  std::vector<long> killed_statuses;
  // How many jobs (queued, running or remembered) carry `uid` in their name.
  std::function<int(const std::string& uid)> jobs_named;
  // The scheduler's server out of reach (true) or back (false), its jobs running on
  // (LifeCycleOutageWorld; a real cluster's may need rights its other tests run without).
  std::function<void(bool)> outage;
  // Where yard hold and release reach its queue (Dialect::action_argv): whether the
  // scheduler shows the job `native` under a user's hold. Empty: holds are refused there,
  // naming the backend.
  std::function<bool(const std::string& native)> held_there = nullptr;
  // Whether the scheduler holds a job on its dependency itself: yard then submits it at
  // once; otherwise yard keeps the job until the dependency is met (and a hold of it
  // meanwhile is yard's own).
  bool holds_on_dependencies = true;
  // A queue whose listing states a run-time limit (queue_limits_test.cpp), and that limit
  // in seconds; empty: the suite's scheduler lists none (or only an admin can add one).
  std::string limited_queue = "";
  std::int64_t queue_time_limit_s = 0;
};

// A stand-in scheduler's server out of reach or back (standin-ctl outage on|off), for
// SchedulerUnderTest::outage of the stand-ins' suites.
inline void stand_in_outage(bool on) {
  int rc = 0;
  sh(std::string("python3 " YARD_SOURCE_DIR "/tests/stand-in-schedulers/standin-ctl outage ") + (on ? "on" : "off"), &rc);
  ASSERT_EQ(rc, 0);
}

// Printed as its backend's name (the tests' listing carries it), not an address.
inline void PrintTo(const SchedulerUnderTest* s, std::ostream* os) { *os << s->backend; }

// Names the suite's tests by their scheduler: "PbsStandIn/LifeCycleWorld.Test/pbs".
inline std::string scheduler_name(const ::testing::TestParamInfo<const SchedulerUnderTest*>& info) {
  return info.param->backend;
}

class LifeCycleWorld : public YardWorld, public ::testing::WithParamInterface<const SchedulerUnderTest*> {
 protected:
  const SchedulerUnderTest& s() const { return *GetParam(); }
  void SetUp() override {
    YardWorld::SetUp();
    fs::create_directories(dir_ + "/config/switchyard");
    write("config/switchyard/" + s().backend + ".yaml",
          "poll_interval: 0.5\ncalls_per_second: 4\nburst: 4\nlost_after: 30\n" + s().yaml_extra);
  }
  void TearDown() override {
    for (auto& j : status())
      if (!j["native_id"].is_null()) sh(s().cancel_command + " '" + j["native_id"].get<std::string>() + "' >/dev/null 2>&1");
    YardWorld::TearDown();
  }
  long submit_here(std::vector<std::string> args) {
    args.insert(args.begin(), {"--backend", s().backend});
    return submit(args);
  }
  // What to look at when a test fails: yard's view and the daemon's log.
  std::string diag() {
    return "\nyard status:\n" + yard({"status"}).out + "daemon.log:\n" + sh("tail -40 " + dir_ + "/state/switchyard/daemon.log");
  }
  bool wait_state(long id, const std::string& state, double seconds = 60) {
    return wait_until([&] { return job(id)["state"] == state; }, seconds);
  }
  // What the backend wrote for a job: its script, and the companion file beside it if
  // it has one (HTCondor's submit description).
  std::string script_of(long id) {
    const std::string stem = "state/switchyard/" + s().backend + "/" + job(id)["uid"].get<std::string>();
    return read(stem + ".sh") + (fs::exists(dir_ + "/" + stem + ".sub") ? read(stem + ".sub") : "");
  }
};

// The scheduler out of reach in the middle of a workload.
class LifeCycleOutageWorld : public LifeCycleWorld {};

// The daemon killed between the scheduler's submit command and storing the id it printed.
class LifeCycleCrashWorld : public LifeCycleWorld {
 protected:
  // A submit command that submits, then hangs before answering.
  void start_with_hanging_submit() {
    fs::create_directories(dir_ + "/slowbin");
    const std::string& cmd = s().submit_command;
    write("slowbin/" + cmd, "#!/bin/sh\nreal=$(PATH=" + std::string(std::getenv("PATH")) + " command -v " + cmd +
                                ")\n\"$real\" \"$@\"\nrc=$?\necho $$ > " + dir_ + "/submit-returned\nsleep 300\nexit $rc\n");
    fs::permissions(dir_ + "/slowbin/" + cmd, fs::perms::owner_all);
    std::string path = std::string("PATH=") + dir_ + "/slowbin:" + std::getenv("PATH");
    auto started = yard({"server", "start"}, {path});
    ASSERT_EQ(started.rc, 0) << started.out << started.err << diag();
  }
  void crash_once_submitted() {
    long pid = daemon_pid();
    ASSERT_TRUE(wait_until([&] { return fs::exists(dir_ + "/submit-returned"); }, 60));
    ::kill(static_cast<pid_t>(pid), SIGKILL);
    ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 30));
    long wrapper = std::atol(read("submit-returned").c_str());
    if (wrapper > 0) ::kill(static_cast<pid_t>(-wrapper), SIGKILL);  // its process group, sleep and all
  }
};

}  // namespace yard::test
