// `yard --backend oar` against a real OAR 2.5.9 (oar_world.h), submitting as an
// unprivileged user: outcomes with exit codes, signals and walltimes, arrays with
// indices of their own, dependencies (-a, and after-ok judged by yard), hostile values,
// cancels, what OAR cannot express, a rejected submission, best-effort jobs preempted
// (and submitted again when they ask), and crashes after oarsub.
#include <sys/stat.h>

#include "oar_world.h"

namespace yard::test {
namespace {

TEST_F(OarWorld, JobsReachTheirTrueOutcomeWithExitCodesSignalsAndOutput) {
  long ok = oar_submit({"-J", "ok", "--", "sh", "-c", "echo out-$OAR_JOB_ID"});
  long three = oar_submit({"--", "sh", "-c", "exit 3"});
  long killed = oar_submit({"--", "sh", "-c", "kill -9 $$"});
  long late = oar_submit({"-t", "0:03", "--", "sleep", "120"});  // walltime of 3 s
  EXPECT_EQ(wait({ok, three, killed, late}), 1) << diag();
  auto a = job(ok), b = job(three), c = job(killed), d = job(late);
  EXPECT_EQ(a["state"], "COMPLETED") << a.dump();
  EXPECT_EQ(a["exit_code"], 0);
  ASSERT_TRUE(a["native_id"].is_string());
  EXPECT_TRUE(a["start_time"].is_string());
  EXPECT_TRUE(a["end_time"].is_string());
  EXPECT_EQ(yard({"logs", std::to_string(ok)}).out, "out-" + a["native_id"].get<std::string>() + "\n");
  EXPECT_EQ(b["state"], "FAILED") << b.dump();
  EXPECT_EQ(b["exit_code"], 3);
  EXPECT_EQ(c["state"], "FAILED") << c.dump();
  EXPECT_EQ(c["signal"], 9);
  EXPECT_EQ(d["state"], "TIMEOUT") << d.dump();
  // The batch script is saved beside the job, with its directives.
  auto script = read("state/switchyard/oar/" + d["uid"].get<std::string>() + ".sh");
  EXPECT_NE(script.find("#OAR -l /host=1/core=1,walltime=0:00:03\n"), std::string::npos) << script;
}

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

TEST_F(OarWorld, HostileValuesReachTheJobByteForByteAndRunNothing) {
  const std::vector<std::string> hostile = {"it's", "\"q\"", "$(touch pwned1)", "`touch pwned2`", "a;touch pwned3",
                                            "line1\nline2", "", "$HOME", "\\", "%j %% %x", "#OAR -t besteffort"};
  std::vector<std::string> args{"-J", "n'; $(touch pwned4) `x`", "-o", "out $x's %j.txt", "--", "sh", "-c",
                                "printf '%s\\0' \"$@\" > args.bin; printf '%s' \"$HOSTILE\" > env.bin", "sh"};
  args.insert(args.end(), hostile.begin(), hostile.end());
  std::string value = "v'\"$(touch pwned5)`touch pwned6`;\nend";
  ::setenv("HOSTILE", value.c_str(), 1);
  long id = oar_submit(args);
  ::unsetenv("HOSTILE");
  ASSERT_EQ(wait({id}), 0) << job(id).dump() << diag();
  std::string expect;
  for (auto& h : hostile) expect += h + std::string(1, '\0');
  EXPECT_EQ(read("args.bin"), expect);
  EXPECT_EQ(read("env.bin"), value);
  EXPECT_EQ(job(id)["name"], "n'; $(touch pwned4) `x`");
  EXPECT_TRUE(fs::exists(dir_ + "/out $x's " + std::to_string(id) + ".txt"));
  for (int i = 1; i <= 6; ++i) EXPECT_FALSE(fs::exists(dir_ + "/pwned" + std::to_string(i))) << i;
}

TEST_F(OarWorld, CancelEndsRunningAndPendingJobsAndOarAgrees) {
  long big = oar_submit({"-n", "4", "--", "sleep", "300"});  // every core of the cluster
  ASSERT_TRUE(wait_state(big, "RUNNING")) << diag();
  long waiting = oar_submit({"--", "sleep", "300"});
  ASSERT_TRUE(wait_until([&] { return job(waiting)["native_id"].is_string(); }, 30)) << diag();
  const auto native = job(big)["native_id"].get<std::string>();
  EXPECT_EQ(yard({"cancel", std::to_string(big), std::to_string(waiting)}).rc, 0);
  ASSERT_TRUE(wait_state(big, "CANCELLED")) << job(big).dump() << diag();
  ASSERT_TRUE(wait_state(waiting, "CANCELLED")) << job(waiting).dump();
  // OAR's record says it was deleted.
  const auto record = sh("oarstat -J -f -j " + native + " 2>&1");
  EXPECT_NE(record.find("FRAG_JOB_REQUEST"), std::string::npos) << record;
  EXPECT_NE(record.find("\"Error\""), std::string::npos) << record;
}

TEST_F(OarWorld, WhatOarCannotExpressIsRefusedWithExit2AndNothingStored) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--backend", "oar", "--gpus", "1", "--", "true"},
                                                                {"--backend", "oar", "--qos", "high", "--", "true"},
                                                                {"--backend", "oar", "-a", "1-4%2", "--", "true"},
                                                                {"--backend", "oar", "-N", "2", "-n", "3", "--", "true"},
                                                                {"--backend", "oar", "-p", "a q", "--", "true"}}) {
    std::vector<std::string> full{"submit"};
    full.insert(full.end(), args.begin(), args.end());
    auto r = yard(full);
    EXPECT_EQ(r.rc, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("oar"), std::string::npos) << r.err;
  }
  EXPECT_EQ(status().size(), 0u);
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

TEST_F(OarCrashWorld, AJobStillQueuedIsFoundByItsUidNotSubmittedTwice) {
  start_with_hanging_oarsub();
  long id = oar_submit({"--", "sleep", "3"});
  crash_once_submitted();
  auto uid = stored_job(id)["uid"].get<std::string>();
  EXPECT_TRUE(stored_job(id)["native_id"].is_null());  // the id never reached the store
  ASSERT_EQ(yard({"server", "start"}).rc, 0);   // normal oarsub from now on
  ASSERT_EQ(wait({id}), 0) << job(id).dump() << diag();
  EXPECT_TRUE(job(id)["native_id"].is_string());
  EXPECT_EQ(native_jobs_named(uid), 1);  // submitted once
}

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
