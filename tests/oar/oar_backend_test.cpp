// `yard --backend oar` against a real OAR 2.5.9 (oar_world.h), submitting as an
// unprivileged user: the life-cycle suite (tests/lifecycle: outcomes, arrays and
// dependencies, hostile values, cancels, refusals, a crash after oarsub), then what is
// OAR's own: arrays with indices of their own, a rejected submission, best-effort jobs
// preempted (and submitted again when they ask), an array found after a crash. The
// server outage runs as root, in oar_outage_test.cpp.
#include <sys/stat.h>

#include "../lifecycle/lifecycle_world.h"
#include "oar_world.h"

namespace yard::test {
namespace {

const SchedulerUnderTest kOar{
    .backend = "oar",
    .submit_command = "oarsub",
    .cancel_command = "oardel",
    .jobid_variable = "OAR_JOB_ID",
    .cpus = 4,
    .yaml_extra = "",
    .walltime_line = "#OAR -l /host=1/core=1,walltime=0:00:02",
    .array = "1-4",  // OAR cannot limit how many elements run at once
    .array_line = "#OAR --array 4",
    // An OAR array has no id of its own: a dependency on it is one on each element.
    .afterany_array_line = [](const std::string& first) { return "#OAR -a " + first; },
    .unexpressible = {{"--gpus", "1", "--", "true"},
                      {"--qos", "high", "--", "true"},
                      {"-a", "1-4%2", "--", "true"},
                      {"-N", "2", "-n", "3", "--", "true"},
                      {"-p", "a q", "--", "true"}},
    .unknown_queue_words = "ERROR : The queue nosuchq does not exist",
    // OAR records no exit status for a job it deleted: its record says Error, with the
    // FRAG_JOB_REQUEST event of the deletion, which counts here as status 1.
    .exit_status = [](const std::string& native) -> std::optional<long> {
      const std::string record = sh("oarstat -J -f -j " + native + " 2>&1");
      if (record.find("FRAG_JOB_REQUEST") != std::string::npos && record.find("\"Error\"") != std::string::npos) return 1;
      return std::nullopt;
    },
    .killed_statuses = {1},
    .jobs_named = [](const std::string& uid) {
      const std::string out = sh("oarstat -J --sql \"job_name LIKE '%" + uid + "%'\" 2>/dev/null");
      if (out.find_first_not_of(" \n") == std::string::npos) return 0;
      auto doc = nlohmann::json::parse(out, nullptr, false);
      return doc.is_object() ? static_cast<int>(doc.size()) : -1;
    },
    .outage = nullptr,
    .held_there = [](const std::string& native) {
      auto doc = nlohmann::json::parse(sh("oarstat -J -j " + native + " 2>/dev/null"), nullptr, false);
      return doc.is_object() && doc.contains(native) && doc[native].value("state", "") == "Hold";
    },
};

// The server outage needs root, who alone may stop it: oar_outage_test.cpp, as root.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LifeCycleOutageWorld);
INSTANTIATE_TEST_SUITE_P(OarCluster, LifeCycleWorld, ::testing::Values(&kOar), scheduler_name);
INSTANTIATE_TEST_SUITE_P(OarCluster, LifeCycleCrashWorld, ::testing::Values(&kOar), scheduler_name);

TEST_F(OarWorld, ADaemonStartedInADirectoryNoLongerEnterableDoesNotLeakItIntoJobs) {
  // The first `yard submit` ran in a directory that its user can enter no more (or that
  // is gone): OAR takes oarsub's directory for the job's launching directory, and a job
  // launched there ends in OAR's Error state whatever its own -D says.
  fs::create_directories(dir_ + "/was-here");
  run_in_ = dir_ + "/was-here";
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  run_in_.clear();
  ASSERT_EQ(::chmod((dir_ + "/was-here").c_str(), 0), 0);
  fs::create_directories(dir_ + "/work");
  long id = oar_submit({"-D", dir_ + "/work", "-o", dir_ + "/work/pwd.out", "--", "sh", "-c", "pwd"});
  const int rc = wait({id});
  ::chmod((dir_ + "/was-here").c_str(), 0700);
  ASSERT_EQ(rc, 0) << diag();
  EXPECT_EQ(read("work/pwd.out"), dir_ + "/work\n");
  const long pid = daemon_pid();
  EXPECT_EQ(fs::read_symlink("/proc/" + std::to_string(pid) + "/cwd").string(), "/");
}

TEST_F(OarWorld, ArraysWithTheirOwnIndicesAndDependenciesOfEveryKind) {
  long arr = oar_submit({"-a", "0,5,17", "-o", "arr-%a.out", "--", "sh", "-c", "echo $YARD_ARRAY_TASK_ID"});
  long any = oar_submit({"-d", "afterany:" + std::to_string(arr), "--", "sh", "-c", "ls arr-*.out | wc -l"});
  long failing = oar_submit({"--", "false"});
  long never = oar_submit({"-d", "afterok:" + std::to_string(failing), "--", "touch", "never-ran"});
  long after_ok = oar_submit({"-d", "afterok:" + std::to_string(any), "--", "cat", "arr-17.out"});
  EXPECT_EQ(wait({arr, any, failing, never, after_ok}), 1) << diag();
  for (int i : {0, 5, 17}) EXPECT_EQ(read("arr-" + std::to_string(i) + ".out"), std::to_string(i) + "\n");
  EXPECT_EQ(yard({"logs", std::to_string(any)}).out, "3\n");  // -a on every element
  auto elems = status({arr});
  ASSERT_EQ(elems.size(), 3u);
  std::set<std::string> natives;
  for (auto& e : elems) {
    // Failing, what OAR itself says of the job (its record, and its log's lines on it).
    const std::string native = e["native_id"].get<std::string>();
    EXPECT_EQ(e["state"], "COMPLETED") << e.dump() << "\noarstat -fJ:\n" << sh("oarstat -fJ -j " + native + " 2>&1")
                                       << "oar.log:\n" << sh("grep -w " + native + " /var/log/oar.log | tail -40");
    natives.insert(e["native_id"].get<std::string>());
  }
  EXPECT_EQ(natives.size(), 3u);  // each element is an OAR job of its own
  const auto script = read("state/switchyard/oar/" + elems[0]["uid"].get<std::string>() + ".sh");
  EXPECT_NE(script.find("#OAR --array 3\n"), std::string::npos) << script;
  EXPECT_EQ(job(never)["state"], "CANCELLED");
  EXPECT_EQ(job(never)["reason"], "DependencyNeverSatisfied");
  EXPECT_FALSE(fs::exists(dir_ + "/never-ran"));
  EXPECT_EQ(job(after_ok)["state"], "COMPLETED");
  EXPECT_EQ(yard({"logs", std::to_string(after_ok)}).out, "17\n");
}

// yard hold and release (oarhold, oarresume) of a job waiting in OAR's queue; then yard
// routes move, which OAR has no delete sparing a started job for: the job is held first,
// deleted once a listing after the hold still shows it waiting, and runs here.
TEST_F(OarWorld, AHeldJobWaitsInOarUntilReleasedAndAWaitingJobMovesThroughAHold) {
  long gate = oar_submit({"--", "sh", "-c", "while [ ! -e open ]; do sleep 0.1; done"});
  long held = oar_submit({"-d", "afterany:" + std::to_string(gate), "--", "touch", "held-ran"});
  long moving = oar_submit({"-d", "afterany:" + std::to_string(gate), "-o", "m.out", "--", "sh", "-c",
                            "echo ran on ${OAR_JOB_ID:-the local machine}"});
  ASSERT_TRUE(wait_until([&] { return job(held)["native_id"].is_string() && job(moving)["native_id"].is_string(); }, 90))
      << diag();
  ASSERT_TRUE(wait_state(gate, "RUNNING")) << diag();
  auto r = yard({"hold", std::to_string(held)});
  ASSERT_EQ(r.rc, 0) << r.err;
  const std::string native = job(held)["native_id"].get<std::string>();
  auto oar_state = [&](const std::string& id) {
    auto doc = nlohmann::json::parse(sh("oarstat -J -j " + id + " 2>/dev/null"), nullptr, false);
    return doc.is_object() && doc.contains(id) ? doc[id].value("state", std::string()) : std::string();
  };
  ASSERT_TRUE(wait_until([&] { return oar_state(native) == "Hold"; }, 30)) << diag();
  Output o = yard({"routes", "move", "oar", "local", "--json"});
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["leaving"], nlohmann::json({held, moving})) << o.out;
  ASSERT_TRUE(wait_until([&] { return job(moving)["backend"] == "local" && job(held)["backend"] == "local"; }, 90))
      << diag();
  EXPECT_EQ(job(held)["held"], true);  // the user's hold goes with it
  write("open", "");
  ASSERT_EQ(wait({gate, moving}), 0) << diag();
  EXPECT_EQ(read("m.out"), "ran on the local machine\n");
  EXPECT_EQ(job(held)["state"], "PENDING");
  r = yard({"release", std::to_string(held)});
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(wait({held}), 0) << diag();
  EXPECT_TRUE(fs::exists(dir_ + "/held-ran"));
}

TEST_F(OarWorld, MoreCoresThanTheClusterHasIsRefusedByOarWithItsWords) {
  // More cores than the cluster has: refused by OAR's scheduler, with its words.
  long bad = oar_submit({"-n", "9", "--", "true"});
  EXPECT_EQ(wait({bad}), 1);
  auto j = job(bad);
  EXPECT_EQ(j["state"], "FAILED");
  EXPECT_NE(j["reason"].get<std::string>().find("rejected by oar"), std::string::npos) << j["reason"];
  EXPECT_NE(j["reason"].get<std::string>().find("not enough resources"), std::string::npos) << j["reason"];
}

TEST_F(OarWorld, ABestEffortJobKilledForAnotherIsPreemptedAndSubmittedAgainWhenItAsks) {
  // Both take every core; the first run of each waits, a second run ends at once.
  const std::string body = "if [ -e ran-$1 ]; then echo again; exit 0; fi; touch ran-$1; sleep 300";
  long again = oar_submit({"--job-type", "besteffort", "--requeue", "-n", "2", "--", "sh", "-c", body, "sh", "again"});
  long once = oar_submit({"--job-type", "besteffort", "-n", "2", "--", "sh", "-c", body, "sh", "once"});
  ASSERT_TRUE(wait_until([&] { return job(again)["state"] == "RUNNING" && job(once)["state"] == "RUNNING"; }, 90))
      << diag();
  const auto first = job(again)["native_id"].get<std::string>();
  long normal = oar_submit({"-n", "4", "--", "true"});  // OAR kills the best-effort jobs for it
  EXPECT_EQ(wait({normal}), 0) << diag();
  ASSERT_TRUE(wait_state(once, "FAILED")) << diag();
  EXPECT_NE(job(once)["reason"].get<std::string>().find("preempted"), std::string::npos) << job(once).dump();
  // The one that asked for it runs again, as a new OAR job, and ends.
  ASSERT_TRUE(wait_state(again, "COMPLETED", 120)) << job(again).dump() << diag();
  EXPECT_NE(job(again)["native_id"].get<std::string>(), first);
  EXPECT_EQ(yard({"logs", std::to_string(again)}).out, "again\n");
  EXPECT_EQ(native_jobs_named(job(again)["uid"]), 2);
  const auto script = read("state/switchyard/oar/" + job(again)["uid"].get<std::string>() + ".sh");
  EXPECT_NE(script.find("#OAR -t besteffort\n"), std::string::npos) << script;
}

// An oarsub that submits, then hangs before answering; the daemon is killed meanwhile.
class OarCrashWorld : public OarWorld {
 protected:
  void start_with_hanging_oarsub() {
    fs::create_directories(dir_ + "/slowbin");
    write("slowbin/oarsub", "#!/bin/sh\n/usr/bin/oarsub \"$@\"\nrc=$?\necho $$ > " + dir_ +
                                "/oarsub-returned\nsleep 300\nexit $rc\n");
    fs::permissions(dir_ + "/slowbin/oarsub", fs::perms::owner_all);
    std::string path = std::string("PATH=") + dir_ + "/slowbin:" + std::getenv("PATH");
    auto started = yard({"server", "start"}, {path});
    ASSERT_EQ(started.rc, 0) << started.out << started.err << diag();
  }
  void crash_once_submitted() {
    long pid = daemon_pid();
    ASSERT_TRUE(wait_until([&] { return fs::exists(dir_ + "/oarsub-returned"); }, 60));
    ::kill(static_cast<pid_t>(pid), SIGKILL);
    ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 30));
    long wrapper = std::atol(read("oarsub-returned").c_str());
    if (wrapper > 0) ::kill(static_cast<pid_t>(-wrapper), SIGKILL);  // its process group, sleep and all
  }
};

TEST_F(OarCrashWorld, AnArrayThatEndedWhileYardWasDownIsFoundInOarsDatabase) {
  start_with_hanging_oarsub();
  long id = oar_submit({"-J", "gone", "-a", "1-2", "--", "sh", "-c", "echo ran >> runs.txt; exit 3"});
  crash_once_submitted();
  auto uid = stored_job(id)["uid"].get<std::string>();
  ASSERT_TRUE(stored_job(id)["native_id"].is_null());
  // OAR runs both and they leave its current jobs; its database keeps them. Both must be
  // Terminated there (not one, the other still finishing) before yard comes back.
  ASSERT_TRUE(wait_until([&] {
    const auto ended = nlohmann::json::parse(
        sh("oarstat -J --sql \"job_name LIKE '%" + uid + "%' AND state = 'Terminated'\" 2>/dev/null"), nullptr, false);
    return ended.is_object() && ended.size() == 2 && read("runs.txt") == "ran\nran\n";
  }, 90)) << diag();
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  EXPECT_EQ(wait({id}), 1);
  auto elems = status({id});
  ASSERT_EQ(elems.size(), 2u);
  for (auto& e : elems) {
    EXPECT_EQ(e["state"], "FAILED") << e.dump();
    EXPECT_EQ(e["exit_code"], 3) << e.dump();
  }
  EXPECT_EQ(native_jobs_named(uid), 2);   // submitted once: two elements
  EXPECT_EQ(read("runs.txt"), "ran\nran\n");  // and ran once each
  EXPECT_NE(read("state/switchyard/daemon.log").find("its record is in the history"), std::string::npos) << diag();
}

}  // namespace
}  // namespace yard::test
