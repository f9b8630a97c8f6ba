// `yard --backend sge` against a real Grid Engine 8.1.9 (sge_world.h), submitting as an
// unprivileged user: outcomes with exit codes, signals and h_rt, arrays with a throttle,
// dependencies (-hold_jid, and after-ok judged by yard), hostile values, cancels, what
// Grid Engine cannot express, a rejected submission, and crashes after qsub.
#include "sge_world.h"

namespace yard::test {
namespace {

TEST_F(SgeWorld, JobsReachTheirTrueOutcomeWithExitCodesSignalsAndOutput) {
  long ok = sge_submit({"-J", "ok", "--", "sh", "-c", "echo out-$JOB_ID"});
  long three = sge_submit({"--", "sh", "-c", "exit 3"});
  long killed = sge_submit({"--", "sh", "-c", "kill -9 $$"});
  long late = sge_submit({"-t", "0:02", "--", "sleep", "120"});  // h_rt of 2 s
  EXPECT_EQ(wait({ok, three, killed, late}), 1) << diag();
  auto a = job(ok), b = job(three), c = job(killed), d = job(late);
  EXPECT_EQ(a["state"], "COMPLETED") << a.dump();
  EXPECT_EQ(a["exit_code"], 0);
  ASSERT_TRUE(a["native_id"].is_string());
  EXPECT_TRUE(a["start_time"].is_string());
  EXPECT_TRUE(a["end_time"].is_string());
  EXPECT_EQ(yard({"logs", std::to_string(ok)}).out, "out-" + a["native_id"].get<std::string>() + "\n");
  EXPECT_EQ(b["state"], "FAILED");
  EXPECT_EQ(b["exit_code"], 3);
  EXPECT_EQ(c["state"], "FAILED") << c.dump();
  EXPECT_EQ(c["signal"], 9);
  EXPECT_EQ(d["state"], "TIMEOUT") << d.dump();
  // The batch script is saved beside the job, with its directives.
  auto script = read("state/switchyard/sge/" + d["uid"].get<std::string>() + ".sh");
  EXPECT_NE(script.find("#$ -l h_rt=0:00:02\n"), std::string::npos) << script;
}

TEST_F(SgeWorld, ArraysWithAThrottleAndDependenciesOfEveryKind) {
  long arr = sge_submit({"-a", "1-4%2", "-o", "arr-%a.out", "--", "sh", "-c", "echo $YARD_ARRAY_TASK_ID"});
  long any = sge_submit({"-d", "afterany:" + std::to_string(arr), "--", "sh", "-c", "ls arr-*.out | wc -l"});
  long failing = sge_submit({"--", "false"});
  long never = sge_submit({"-d", "afterok:" + std::to_string(failing), "--", "touch", "never-ran"});
  long after_ok = sge_submit({"-d", "afterok:" + std::to_string(any), "--", "cat", "arr-4.out"});
  EXPECT_EQ(wait({arr, any, failing, never, after_ok}), 1) << diag();
  for (int i = 1; i <= 4; ++i) EXPECT_EQ(read("arr-" + std::to_string(i) + ".out"), std::to_string(i) + "\n");
  EXPECT_EQ(yard({"logs", std::to_string(any)}).out, "4\n");  // -hold_jid: after every element
  auto elems = status({arr});
  ASSERT_EQ(elems.size(), 4u);
  for (auto& e : elems) EXPECT_EQ(e["state"], "COMPLETED");
  const auto base = elems[0]["native_id"].get<std::string>();
  EXPECT_EQ(base.substr(base.find('.')), ".1");
  const auto script = read("state/switchyard/sge/" + elems[0]["uid"].get<std::string>() + ".sh");
  EXPECT_NE(script.find("#$ -t 1-4\n#$ -tc 2\n"), std::string::npos) << script;
  EXPECT_EQ(job(never)["state"], "CANCELLED");
  EXPECT_EQ(job(never)["reason"], "DependencyNeverSatisfied");
  EXPECT_FALSE(fs::exists(dir_ + "/never-ran"));
  EXPECT_EQ(job(after_ok)["state"], "COMPLETED");
  EXPECT_EQ(yard({"logs", std::to_string(after_ok)}).out, "4\n");
}

TEST_F(SgeWorld, HostileValuesReachTheJobByteForByteAndRunNothing) {
  const std::vector<std::string> hostile = {"it's", "\"q\"", "$(touch pwned1)", "`touch pwned2`", "a;touch pwned3",
                                            "line1\nline2", "", "$HOME", "\\", "%j %% %x", "#$ -N x"};
  std::vector<std::string> args{"-J", "n'; $(touch pwned4) `x`", "-o", "out $x's %j.txt", "--", "sh", "-c",
                                "printf '%s\\0' \"$@\" > args.bin; printf '%s' \"$HOSTILE\" > env.bin", "sh"};
  args.insert(args.end(), hostile.begin(), hostile.end());
  std::string value = "v'\"$(touch pwned5)`touch pwned6`;\nend";
  ::setenv("HOSTILE", value.c_str(), 1);
  long id = sge_submit(args);
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

TEST_F(SgeWorld, CancelEndsRunningAndPendingJobsAndGridEngineAgrees) {
  long big = sge_submit({"-n", "4", "--", "sleep", "300"});  // every slot of the cluster
  ASSERT_TRUE(wait_state(big, "RUNNING")) << diag();
  long waiting = sge_submit({"--", "sleep", "300"});
  ASSERT_TRUE(wait_until([&] { return job(waiting)["native_id"].is_string(); }, 30)) << diag();
  const auto native = job(big)["native_id"].get<std::string>();
  EXPECT_EQ(yard({"cancel", std::to_string(big), std::to_string(waiting)}).rc, 0);
  ASSERT_TRUE(wait_state(big, "CANCELLED")) << job(big).dump() << diag();
  ASSERT_TRUE(wait_state(waiting, "CANCELLED")) << job(waiting).dump();
  EXPECT_EQ(job(waiting)["reason"], "cancelled before it ran");
  // Grid Engine's accounting says the running one was killed.
  EXPECT_TRUE(wait_until([&] { return sh("qacct -j " + native + " 2>/dev/null").find("failed       100") != std::string::npos; }, 30))
      << sh("qacct -j " + native + " 2>&1");
}

TEST_F(SgeWorld, WhatGridEngineCannotExpressIsRefusedWithExit2AndNothingStored) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--backend", "sge", "--gpus", "1", "--", "true"},
                                                                {"--backend", "sge", "--qos", "high", "--", "true"},
                                                                {"--backend", "sge", "-a", "0-3", "--", "true"},
                                                                {"--backend", "sge", "-p", "a q", "--", "true"}}) {
    std::vector<std::string> full{"submit"};
    full.insert(full.end(), args.begin(), args.end());
    auto r = yard(full);
    EXPECT_EQ(r.rc, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("sge"), std::string::npos) << r.err;
  }
  EXPECT_EQ(status().size(), 0u);
  // A queue Grid Engine does not know: refused by qsub, with its words.
  long bad = sge_submit({"-p", "nosuch.q", "--", "true"});
  EXPECT_EQ(wait({bad}), 1);
  auto j = job(bad);
  EXPECT_EQ(j["state"], "FAILED");
  EXPECT_NE(j["reason"].get<std::string>().find("rejected by sge"), std::string::npos) << j["reason"];
}

// A qsub that submits, then hangs before answering; the daemon is killed meanwhile.
class SgeCrashWorld : public SgeWorld {
 protected:
  void start_with_hanging_qsub() {
    fs::create_directories(dir_ + "/slowbin");
    write("slowbin/qsub", "#!/bin/sh\nqsub=$(PATH=" + std::string(std::getenv("PATH")) +
                              " command -v qsub)\n\"$qsub\" \"$@\"\nrc=$?\necho $$ > " + dir_ +
                              "/qsub-returned\nsleep 300\nexit $rc\n");
    fs::permissions(dir_ + "/slowbin/qsub", fs::perms::owner_all);
    std::string path = std::string("PATH=") + dir_ + "/slowbin:" + std::getenv("PATH");
    auto started = yard({"server", "start"}, {path});
    ASSERT_EQ(started.rc, 0) << started.out << started.err << diag();
  }
  void crash_once_submitted() {
    long pid = daemon_pid();
    ASSERT_TRUE(wait_until([&] { return fs::exists(dir_ + "/qsub-returned"); }, 60));
    ::kill(static_cast<pid_t>(pid), SIGKILL);
    ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 30));
    long wrapper = std::atol(read("qsub-returned").c_str());
    if (wrapper > 0) ::kill(static_cast<pid_t>(-wrapper), SIGKILL);  // its process group, sleep and all
  }
};

TEST_F(SgeCrashWorld, AJobStillQueuedIsFoundByItsUidNotSubmittedTwice) {
  start_with_hanging_qsub();
  long id = sge_submit({"--", "sleep", "3"});
  crash_once_submitted();
  auto uid = stored_job(id)["uid"].get<std::string>();
  EXPECT_TRUE(stored_job(id)["native_id"].is_null());  // the id never reached the store
  ASSERT_EQ(yard({"server", "start"}).rc, 0);   // normal qsub from now on
  ASSERT_EQ(wait({id}), 0) << job(id).dump() << diag();
  EXPECT_TRUE(job(id)["native_id"].is_string());
  EXPECT_EQ(native_jobs_named(uid), 1);  // submitted once
}

TEST_F(SgeCrashWorld, AJobThatEndedWhileYardWasDownIsFoundInTheAccounting) {
  start_with_hanging_qsub();
  long id = sge_submit({"-J", "gone", "--", "sh", "-c", "echo ran >> runs.txt; exit 3"});
  crash_once_submitted();
  auto uid = stored_job(id)["uid"].get<std::string>();
  ASSERT_TRUE(stored_job(id)["native_id"].is_null());
  // Grid Engine runs it and forgets it from the queue at once; qacct has its record.
  ASSERT_TRUE(wait_until([&] { return sh("qacct -j '*" + uid + "*' 2>/dev/null").find("jobnumber") != std::string::npos; }, 60))
      << diag();
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  EXPECT_EQ(wait({id}), 1);
  auto j = job(id);
  EXPECT_EQ(j["state"], "FAILED") << j.dump();
  EXPECT_EQ(j["exit_code"], 3) << j.dump();
  EXPECT_EQ(native_jobs_named(uid), 1);  // submitted once
  EXPECT_EQ(read("runs.txt"), "ran\n");  // and ran once
  EXPECT_NE(read("state/switchyard/daemon.log").find("its record is in the history"), std::string::npos) << diag();
}

}  // namespace
}  // namespace yard::test
