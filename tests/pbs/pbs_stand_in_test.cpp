// `yard --backend pbs` against the PBS Pro stand-in (pbs_stand_in_world.h): outcomes with
// exit codes, signals and walltime, arrays with a throttle, dependencies of every kind
// (a dependent the server deletes), hostile values, cancels, what PBS Pro cannot express,
// a rejected submission: the life cycle the Grid Engine and Slurm backends pass on their
// real clusters.
#include "pbs_stand_in_world.h"

namespace yard::test {
namespace {

TEST_F(PbsStandInWorld, JobsReachTheirTrueOutcomeWithExitCodesSignalsAndOutput) {
  long ok = pbs_submit({"-J", "ok", "--", "sh", "-c", "echo out-$PBS_JOBID"});
  long three = pbs_submit({"--", "sh", "-c", "exit 3"});
  long killed = pbs_submit({"--", "sh", "-c", "kill -9 $$"});
  long late = pbs_submit({"-t", "0:02", "--", "sleep", "120"});  // walltime of 2 s
  EXPECT_EQ(wait({ok, three, killed, late}), 1) << diag();
  auto a = job(ok), b = job(three), c = job(killed), d = job(late);
  EXPECT_EQ(a["state"], "COMPLETED") << a.dump();
  EXPECT_EQ(a["exit_code"], 0);
  ASSERT_TRUE(a["native_id"].is_string());
  EXPECT_TRUE(a["start_time"].is_string());
  EXPECT_TRUE(a["end_time"].is_string());
  // PBS_JOBID is the full id, server and all.
  EXPECT_EQ(yard({"logs", std::to_string(ok)}).out.rfind("out-" + a["native_id"].get<std::string>() + ".", 0), 0u)
      << yard({"logs", std::to_string(ok)}).out;
  EXPECT_EQ(b["state"], "FAILED");
  EXPECT_EQ(b["exit_code"], 3);
  EXPECT_EQ(c["state"], "FAILED") << c.dump();
  EXPECT_EQ(c["signal"], 9);
  EXPECT_EQ(d["state"], "TIMEOUT") << d.dump();
  auto script = read("state/switchyard/pbs/" + d["uid"].get<std::string>() + ".sh");
  EXPECT_NE(script.find("#PBS -l walltime=0:00:02\n"), std::string::npos) << script;
}

TEST_F(PbsStandInWorld, ArraysWithAThrottleAndDependenciesOfEveryKind) {
  long arr = pbs_submit({"-a", "1-4%2", "-o", "arr-%a.out", "--", "sh", "-c", "echo $YARD_ARRAY_TASK_ID"});
  long any = pbs_submit({"-d", "afterany:" + std::to_string(arr), "--", "sh", "-c", "ls arr-*.out | wc -l"});
  long failing = pbs_submit({"--", "false"});
  long never = pbs_submit({"-d", "afterok:" + std::to_string(failing), "--", "touch", "never-ran"});
  long after_ok = pbs_submit({"-d", "afterok:" + std::to_string(any), "--", "cat", "arr-4.out"});
  EXPECT_EQ(wait({arr, any, failing, never, after_ok}), 1) << diag();
  for (int i = 1; i <= 4; ++i) EXPECT_EQ(read("arr-" + std::to_string(i) + ".out"), std::to_string(i) + "\n");
  EXPECT_EQ(yard({"logs", std::to_string(any)}).out, "4\n");  // afterany on 123[]: after every subjob
  auto elems = status({arr});
  ASSERT_EQ(elems.size(), 4u);
  for (auto& e : elems) EXPECT_EQ(e["state"], "COMPLETED");
  const auto first = elems[0]["native_id"].get<std::string>();
  EXPECT_EQ(first.substr(first.find('[')), "[1]");
  const auto script = read("state/switchyard/pbs/" + elems[0]["uid"].get<std::string>() + ".sh");
  EXPECT_NE(script.find("#PBS -J 1-4%2\n"), std::string::npos) << script;
  const auto any_script = read("state/switchyard/pbs/" + job(any)["uid"].get<std::string>() + ".sh");
  EXPECT_NE(any_script.find("#PBS -W depend=afterany:" + first.substr(0, first.find('[')) + "[]\n"), std::string::npos)
      << any_script;
  // The server deleted the dependent whose parent failed.
  EXPECT_EQ(job(never)["state"], "CANCELLED") << job(never).dump();
  EXPECT_EQ(job(never)["reason"], "DependencyNeverSatisfied");
  EXPECT_FALSE(fs::exists(dir_ + "/never-ran"));
  EXPECT_EQ(job(after_ok)["state"], "COMPLETED");
  EXPECT_EQ(yard({"logs", std::to_string(after_ok)}).out, "4\n");
}

TEST_F(PbsStandInWorld, HostileValuesReachTheJobByteForByteAndRunNothing) {
  const std::vector<std::string> hostile = {"it's", "\"q\"", "$(touch pwned1)", "`touch pwned2`", "a;touch pwned3",
                                            "line1\nline2", "", "$HOME", "\\", "%j %% %x", "#PBS -N x"};
  std::vector<std::string> args{"-J", "n'; $(touch pwned4) `x`", "-o", "out $x's %j.txt", "--", "sh", "-c",
                                "printf '%s\\0' \"$@\" > args.bin; printf '%s' \"$HOSTILE\" > env.bin", "sh"};
  args.insert(args.end(), hostile.begin(), hostile.end());
  std::string value = "v'\"$(touch pwned5)`touch pwned6`;\nend";
  ::setenv("HOSTILE", value.c_str(), 1);
  long id = pbs_submit(args);
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

TEST_F(PbsStandInWorld, CancelEndsRunningAndPendingJobsAndTheServerAgrees) {
  long big = pbs_submit({"-n", "4", "--", "sleep", "300"});  // every CPU of the stand-in
  ASSERT_TRUE(wait_state(big, "RUNNING")) << diag();
  long waiting = pbs_submit({"--", "sleep", "300"});
  ASSERT_TRUE(wait_until([&] { return job(waiting)["native_id"].is_string(); }, 30)) << diag();
  const auto native = job(big)["native_id"].get<std::string>();
  EXPECT_EQ(yard({"cancel", std::to_string(big), std::to_string(waiting)}).rc, 0);
  ASSERT_TRUE(wait_state(big, "CANCELLED")) << job(big).dump() << diag();
  ASSERT_TRUE(wait_state(waiting, "CANCELLED")) << job(waiting).dump();
  // The server's record: killed by SIGTERM (256 + 15), deleted.
  auto record = pbs_record(native);
  ASSERT_FALSE(record.is_null());
  EXPECT_EQ(record["job_state"], "F");
  EXPECT_EQ(record["Exit_status"], 271) << record.dump();
}

TEST_F(PbsStandInWorld, WhatPbsProCannotExpressIsRefusedWithExit2AndNothingStored) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--backend", "pbs", "--gpus", "1", "--", "true"},
                                                                {"--backend", "pbs", "--qos", "high", "--", "true"},
                                                                {"--backend", "pbs", "-a", "1,2,5", "--", "true"}}) {
    std::vector<std::string> full{"submit"};
    full.insert(full.end(), args.begin(), args.end());
    auto r = yard(full);
    EXPECT_EQ(r.rc, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("pbs"), std::string::npos) << r.err;
  }
  EXPECT_EQ(status().size(), 0u);
  // A queue the server does not know: refused by qsub, with its words.
  long bad = pbs_submit({"-p", "nosuchq", "--", "true"});
  EXPECT_EQ(wait({bad}), 1);
  auto j = job(bad);
  EXPECT_EQ(j["state"], "FAILED");
  EXPECT_NE(j["reason"].get<std::string>().find("rejected by pbs: qsub: Unknown queue"), std::string::npos) << j["reason"];
}

}  // namespace
}  // namespace yard::test
