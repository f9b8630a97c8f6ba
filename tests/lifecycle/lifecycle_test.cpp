// The life cycle every batch-scheduler backend passes, on the scheduler its binary's
// fixture started (lifecycle_world.h): outcomes with exit codes, signals and walltime,
// arrays with a throttle, dependencies of every kind (a dependent whose parent failed
// never runs), hostile values, cancels, holds, what the scheduler cannot express, a
// rejected submission.
#include "lifecycle_world.h"

namespace yard::test {
namespace {

TEST_P(LifeCycleWorld, JobsReachTheirTrueOutcomeWithExitCodesSignalsAndOutput) {
  long ok = submit_here({"-J", "ok", "--", "sh", "-c", "echo out-$" + s().jobid_variable});
  long three = submit_here({"--", "sh", "-c", "exit 3"});
  long killed = submit_here({"--", "sh", "-c", "kill -9 $$"});
  long late = submit_here({"-t", "0:02", "--", "sleep", "120"});  // a walltime of 2 s
  EXPECT_EQ(wait({ok, three, killed, late}), 1) << diag();
  auto a = job(ok), b = job(three), c = job(killed), d = job(late);
  EXPECT_EQ(a["state"], "COMPLETED") << a.dump();
  EXPECT_EQ(a["exit_code"], 0);
  ASSERT_TRUE(a["native_id"].is_string());
  EXPECT_TRUE(a["start_time"].is_string());
  EXPECT_TRUE(a["end_time"].is_string());
  // The job sees its native id (some schedulers add their server's name).
  const std::string out = yard({"logs", std::to_string(ok)}).out;
  EXPECT_EQ(out.rfind("out-" + a["native_id"].get<std::string>(), 0), 0u) << out;
  EXPECT_EQ(b["state"], "FAILED");
  EXPECT_EQ(b["exit_code"], 3);
  EXPECT_EQ(c["state"], "FAILED") << c.dump();
  EXPECT_EQ(c["signal"], 9);
  EXPECT_EQ(d["state"], "TIMEOUT") << d.dump();
  EXPECT_NE(script_of(late).find(s().walltime_line + "\n"), std::string::npos) << script_of(late);
}

TEST_P(LifeCycleWorld, ArraysWithAThrottleAndDependenciesOfEveryKind) {
  long arr = submit_here({"-a", s().array, "-o", "arr-%a.out", "--", "sh", "-c", "echo $YARD_ARRAY_TASK_ID"});
  long any = submit_here({"-d", "afterany:" + std::to_string(arr), "--", "sh", "-c", "ls arr-*.out | wc -l"});
  long failing = submit_here({"--", "false"});
  long never = submit_here({"-d", "afterok:" + std::to_string(failing), "--", "touch", "never-ran"});
  long after_ok = submit_here({"-d", "afterok:" + std::to_string(any), "--", "cat", "arr-4.out"});
  EXPECT_EQ(wait({arr, any, failing, never, after_ok}), 1) << diag();
  for (int i = 1; i <= 4; ++i) EXPECT_EQ(read("arr-" + std::to_string(i) + ".out"), std::to_string(i) + "\n");
  EXPECT_EQ(yard({"logs", std::to_string(any)}).out, "4\n");  // after every element
  auto elems = status({arr});
  ASSERT_EQ(elems.size(), 4u);
  for (auto& e : elems) EXPECT_EQ(e["state"], "COMPLETED");
  EXPECT_NE(script_of(arr).find(s().array_line + "\n"), std::string::npos) << script_of(arr);
  const auto first = elems[0]["native_id"].get<std::string>();
  const auto base = first.substr(0, first.find_first_of("[._"));
  EXPECT_NE(script_of(any).find(s().afterany_array_line(base) + "\n"), std::string::npos) << script_of(any);
  EXPECT_EQ(job(never)["state"], "CANCELLED") << job(never).dump();
  EXPECT_EQ(job(never)["reason"], "DependencyNeverSatisfied");
  EXPECT_FALSE(fs::exists(dir_ + "/never-ran"));
  EXPECT_EQ(job(after_ok)["state"], "COMPLETED");
  EXPECT_EQ(yard({"logs", std::to_string(after_ok)}).out, "4\n");
}

TEST_P(LifeCycleWorld, HostileValuesReachTheJobByteForByteAndRunNothing) {
  const std::vector<std::string> hostile = {"it's", "\"q\"", "$(touch pwned1)", "`touch pwned2`", "a;touch pwned3",
                                            "line1\nline2", "", "$HOME", "\\", "%j %% %x", "#PBS -N x", "#BSUB -J x"};
  std::vector<std::string> args{"-J", "n'; $(touch pwned4) `x`", "-o", "out $x's %j.txt", "--", "sh", "-c",
                                "printf '%s\\0' \"$@\" > args.bin; printf '%s' \"$HOSTILE\" > env.bin", "sh"};
  args.insert(args.end(), hostile.begin(), hostile.end());
  std::string value = "v'\"$(touch pwned5)`touch pwned6`;\nend";
  ::setenv("HOSTILE", value.c_str(), 1);
  long id = submit_here(args);
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

TEST_P(LifeCycleWorld, CancelEndsRunningAndPendingJobsAndTheSchedulerAgrees) {
  long big = submit_here({"-n", std::to_string(s().cpus), "--", "sleep", "300"});  // every CPU there is
  ASSERT_TRUE(wait_state(big, "RUNNING")) << diag();
  long waiting = submit_here({"--", "sleep", "300"});
  ASSERT_TRUE(wait_until([&] { return job(waiting)["native_id"].is_string(); }, 30)) << diag();
  const auto native = job(big)["native_id"].get<std::string>();
  EXPECT_EQ(yard({"cancel", std::to_string(big), std::to_string(waiting)}).rc, 0);
  ASSERT_TRUE(wait_state(big, "CANCELLED")) << job(big).dump() << diag();
  ASSERT_TRUE(wait_state(waiting, "CANCELLED")) << job(waiting).dump();
  // The scheduler's own record (which may come a little later): killed by a signal.
  std::optional<long> status;
  ASSERT_TRUE(wait_until([&] { return (status = s().exit_status(native)).has_value(); }, 60)) << native;
  EXPECT_NE(std::find(s().killed_statuses.begin(), s().killed_statuses.end(), *status), s().killed_statuses.end())
      << *status;
}

// yard hold and release where the scheduler has them: a job waiting on another stays in
// the scheduler's queue past that job's end (a twin waiting on the same job has run
// meanwhile) until released. Elsewhere the hold is refused, naming the backend.
TEST_P(LifeCycleWorld, AHeldJobWaitsPastItsDependencyUntilReleasedWhereTheSchedulerHolds) {
  const std::string open = dir_ + "/open", ran = dir_ + "/held-ran";
  long gate = submit_here({"--", "sh", "-c", "while [ ! -e " + open + " ]; do sleep 0.1; done; echo gate saw it"});
  long held = submit_here({"-d", "afterany:" + std::to_string(gate), "--", "touch", ran});
  if (!s().held_there) {
    auto r = yard({"hold", std::to_string(held)});
    EXPECT_EQ(r.rc, 2) << r.err;
    EXPECT_NE(r.err.find("backend " + s().backend + " cannot hold jobs"), std::string::npos) << r.err;
    write("open", "");
    EXPECT_EQ(wait({gate, held}), 0) << diag();
    return;
  }
  // Held by the scheduler once in its queue; by yard while yard still has the job (one
  // waiting on a dependency the scheduler cannot hold it on).
  if (s().holds_on_dependencies) {
    ASSERT_TRUE(wait_until([&] { return job(held)["native_id"].is_string(); }, 60)) << diag();
  }
  auto r = yard({"hold", std::to_string(held)});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(job(held)["held"], true);
  if (s().holds_on_dependencies) {
    // The hold is sent after yard's answer, as a cancel is: the scheduler shows it soon.
    const std::string native = job(held)["native_id"].get<std::string>();
    ASSERT_TRUE(wait_until([&] { return s().held_there(native); }, 30)) << diag();
  }
  long twin = submit_here({"-d", "afterany:" + std::to_string(gate), "--", "true"});
  write("open", "");
  ASSERT_EQ(wait({gate, twin}), 0) << diag();
  EXPECT_EQ(job(held)["state"], "PENDING") << diag();
  EXPECT_FALSE(fs::exists(ran)) << yard({"logs", std::to_string(gate)}).out;
  if (!s().holds_on_dependencies) {
    EXPECT_TRUE(job(held)["native_id"].is_null()) << "a held job was submitted";
  }
  r = yard({"release", std::to_string(held)});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(wait({held}), 0) << diag();
  EXPECT_TRUE(fs::exists(ran));
}

// yard requeue, the same on every scheduler: the running job's run is cancelled, and it
// is submitted again under its yard id (a new native id), runs again and ends as its
// second run does.
TEST_P(LifeCycleWorld, ARequeuedJobRunsAgainUnderItsYardId) {
  const std::string runs = dir_ + "/runs", go = dir_ + "/go";
  long id = submit_here({"--", "sh", "-c", "echo run >> " + runs + "; while [ ! -e " + go + " ]; do sleep 0.1; done"});
  auto lines = [&] {
    std::ifstream in(runs);
    return static_cast<int>(std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
  };
  ASSERT_TRUE(wait_until([&] { return lines() == 1 && job(id)["state"] == "RUNNING"; }, 60)) << diag();
  const auto first = job(id)["native_id"];
  auto r = yard({"requeue", std::to_string(id)});
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_TRUE(wait_until([&] { return lines() == 2 && job(id)["state"] == "RUNNING"; }, 90)) << diag();
  EXPECT_NE(job(id)["native_id"], first) << diag();
  write("go", "");
  EXPECT_EQ(wait({id}), 0) << diag();
  EXPECT_EQ(job(id)["state"], "COMPLETED");
  EXPECT_EQ(lines(), 2);
  const std::string events = yard({"watch", "--no-follow", std::to_string(id)}).out;
  EXPECT_NE(events.find("requeued: "), std::string::npos) << events;
}

// yard routes move: a job waiting in the scheduler's queue (or kept by yard while its
// dependency is not met, where the scheduler cannot hold a job on one) leaves it for the
// local machine and runs once, there; the running job it waits on stays.
TEST_P(LifeCycleWorld, AWaitingJobMovesToTheLocalMachineAndRunsOnceThere) {
  const std::string open = dir_ + "/open";
  long gate = submit_here({"--", "sh", "-c", "while [ ! -e " + open + " ]; do sleep 0.1; done"});
  long queued = submit_here({"-d", "afterany:" + std::to_string(gate), "-o", dir_ + "/q.out", "--", "sh", "-c",
                             "echo ran on ${" + s().jobid_variable + ":-the local machine}"});
  ASSERT_TRUE(wait_state(gate, "RUNNING")) << diag();
  if (s().holds_on_dependencies) {
    ASSERT_TRUE(wait_until([&] { return job(queued)["native_id"].is_string(); }, 60)) << diag();
  }
  auto r = yard({"routes", "move", s().backend, "local", "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  auto moves = nlohmann::json::parse(r.out);
  auto went = moves["leaving"];
  for (auto& id : moves["moved"]) went.push_back(id);
  EXPECT_EQ(went, nlohmann::json({queued})) << r.out;
  ASSERT_TRUE(wait_until([&] { return job(queued)["backend"] == "local"; }, 60)) << diag();
  EXPECT_EQ(job(queued)["state"], "PENDING");  // its dependency on the gate goes with it
  EXPECT_EQ(job(gate)["backend"], s().backend);
  write("open", "");
  ASSERT_EQ(wait({gate, queued}), 0) << diag();
  EXPECT_EQ(read("q.out"), "ran on the local machine\n");
}

// Every job sees yard's variables with its yard ids, an array element its own; a job of
// Slurm's commands as front ends (their mark, YARD_SLURM_VARIABLES) sees Slurm's too, with
// yard's ids where the scheduler is not Slurm (on Slurm they are Slurm's own).
TEST_P(LifeCycleWorld, AJobSeesItsYardIdsAndSlurmsVariablesWhenSubmittedThroughSlurmsCommands) {
  const std::string show = "echo \"$YARD_JOB_ID $YARD_JOB_NAME $SLURM_JOB_ID $SLURM_NTASKS $SLURM_ARRAY_JOB_ID "
                           "$SLURM_ARRAY_TASK_ID $YARD_ARRAY_TASK_ID\"";
  auto r = yard({"submit", "--backend", s().backend, "-J", "seen", "-o", dir_ + "/one.out", "--", "sh", "-c", show},
                {"YARD_SLURM_VARIABLES=1", "YARD_JOB_ID=999999"});  // as if submitted from inside job 999999
  ASSERT_EQ(r.rc, 0) << r.err;
  const long one = std::stol(r.out);
  r = yard({"submit", "--backend", s().backend, "-J", "seen", "-a", "2-6:2", "-o", dir_ + "/el-%a.out", "--", "sh", "-c",
            show},
           {"YARD_SLURM_VARIABLES=1"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const long array = std::stol(r.out);
  ASSERT_EQ(wait({one, array}), 0) << diag();
  if (s().backend == "slurm") {  // Slurm's own: its id, and no SLURM_NTASKS without -n
    EXPECT_EQ(read("one.out"), std::to_string(one) + " seen " + job(one)["native_id"].get<std::string>() + "    \n");
  } else {
    EXPECT_EQ(read("one.out"), std::to_string(one) + " seen " + std::to_string(one) + " 1   \n");
  }
  for (int k = 0; k < 3; ++k) {
    const std::string index = std::to_string(2 + 2 * k), id = std::to_string(array + k);
    const std::string out = read("el-" + index + ".out");
    EXPECT_EQ(out.substr(0, id.size() + 6), id + " seen ") << out;
    EXPECT_TRUE(out.ends_with(" " + index + " " + index + "\n")) << out;
    if (s().backend != "slurm") {
      EXPECT_EQ(out, id + " seen " + id + " 1 " + std::to_string(array) + " " + index + " " + index + "\n");
    }
  }
}

TEST_P(LifeCycleWorld, WhatTheSchedulerCannotExpressIsRefusedWithExit2AndNothingStored) {
  for (auto args : s().unexpressible) {
    args.insert(args.begin(), {"submit", "--backend", s().backend});
    auto r = yard(args);
    EXPECT_EQ(r.rc, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("backend " + s().backend), std::string::npos) << r.err;
  }
  EXPECT_EQ(status().size(), 0u);
  if (s().unknown_queue_words.empty()) {  // no queues at all
    auto r = yard({"submit", "--backend", s().backend, "-p", "nosuchq", "--", "true"});
    EXPECT_EQ(r.rc, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("backend " + s().backend), std::string::npos) << r.err;
    return;
  }
  // A queue the scheduler does not know: refused by it, with its words.
  long bad = submit_here({"-p", "nosuchq", "--", "true"});
  EXPECT_EQ(wait({bad}), 1);
  auto j = job(bad);
  EXPECT_EQ(j["state"], "FAILED");
  EXPECT_NE(j["reason"].get<std::string>().find("rejected by " + s().backend + ": " + s().unknown_queue_words),
            std::string::npos)
      << j["reason"];
}

TEST_P(LifeCycleOutageWorld, SchedulerUnreachableWith30JobsNoneLostNoneTwice) {
  std::vector<long> ids;
  // 30 jobs that hold their CPUs until `go` exists: some run while others queue.
  for (int i = 0; i < 30; ++i)
    ids.push_back(submit_here({"-o", "/dev/null", "--", "sh", "-c", "while [ ! -e go ]; do sleep 0.2; done"}));
  auto count = [&](const std::string& wanted) {
    int n = 0;
    for (auto& j : status()) n += j["state"] == wanted;
    return n;
  };
  ASSERT_TRUE(wait_until([&] { return count("RUNNING") > 0 && count("PENDING") > 0; }, 120)) << diag();
  s().outage(true);
  // The outage itself lasts 10 s (this is the scenario, not a wait for a condition);
  // jobs submitted meanwhile meet the unreachable scheduler, whose running jobs go on.
  for (int i = 0; i < 5; ++i) ids.push_back(submit_here({"-o", "/dev/null", "--", "true"}));
  std::this_thread::sleep_for(std::chrono::seconds(10));
  EXPECT_EQ(count("COMPLETED") + count("FAILED") + count("LOST"), 0) << diag();  // nothing judged blind
  // Tried once and waiting to be tried again, or held since the scheduler was found down
  // (nothing is sent to it then): either way the REASON says so.
  // (On a loaded machine the failed calls behind these take longer: waited for, 60 s at most.)
  nlohmann::json waiting;
  EXPECT_TRUE(wait_until(
      [&] {
        waiting = job(ids[34]);
        const std::string reason = waiting["reason"];
        return reason.find("not submitted yet: " + s().backend + ": ") != std::string::npos ||
               reason.find("held by yard: " + s().backend + " is down") != std::string::npos;
      },
      60))
      << waiting.dump();
  std::string down;  // and `yard routes` says it is down, and why
  Output routes;
  EXPECT_TRUE(wait_until(
      [&] {
        routes = yard({"routes", "--json"});
        const auto health = nlohmann::json::parse(routes.out, nullptr, false);
        if (!health.is_object() || !health.contains("backends")) return false;
        for (auto& b : health["backends"])
          if (b["backend"] == s().backend && b["down"].is_string()) down = b["down"].get<std::string>();
        return down.find("failed calls in a row") != std::string::npos;
      },
      60))
      << routes.out << routes.err;
  s().outage(false);
  write("go", "");
  ASSERT_TRUE(all_ended(300)) << diag();
  auto all = status();
  ASSERT_EQ(all.size(), 35u);
  std::set<std::string> natives;
  for (auto& j : all) {
    EXPECT_EQ(j["state"], "COMPLETED") << j.dump();
    natives.insert(j["native_id"].is_string() ? j["native_id"].get<std::string>() : "");
  }
  EXPECT_EQ(natives.size(), 35u);
  for (long id : {ids[0], ids[15], ids[34]}) EXPECT_EQ(s().jobs_named(job(id)["uid"]), 1) << id;
  auto server = nlohmann::json::parse(yard({"server", "status", "--json"}).out);
  EXPECT_GT(server[s().backend + "_calls"]["failed"].get<int>(), 0) << server.dump();  // seen, and survived
}

TEST_P(LifeCycleCrashWorld, AJobStillQueuedIsFoundByItsUidNotSubmittedTwice) {
  start_with_hanging_submit();
  long id = submit_here({"--", "sleep", "3"});
  crash_once_submitted();
  auto uid = stored_job(id)["uid"].get<std::string>();
  EXPECT_TRUE(stored_job(id)["native_id"].is_null());  // the id never reached the store
  ASSERT_EQ(yard({"server", "start"}).rc, 0);           // the plain submit command from now on
  ASSERT_EQ(wait({id}), 0) << job(id).dump() << diag();
  EXPECT_TRUE(job(id)["native_id"].is_string());
  EXPECT_EQ(s().jobs_named(uid), 1);  // submitted once
}

TEST_P(LifeCycleCrashWorld, AJobThatEndedWhileYardWasDownIsFoundInTheSchedulersRecords) {
  start_with_hanging_submit();
  long id = submit_here({"-J", "gone", "--", "sh", "-c", "echo ran >> runs.txt; exit 3"});
  crash_once_submitted();
  auto uid = stored_job(id)["uid"].get<std::string>();
  ASSERT_TRUE(stored_job(id)["native_id"].is_null());
  // It runs and ends while no daemon runs.
  ASSERT_TRUE(wait_until([&] { return fs::exists(dir_ + "/runs.txt"); }, 60)) << diag();
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  EXPECT_EQ(wait({id}), 1);
  auto j = job(id);
  EXPECT_EQ(j["state"], "FAILED") << j.dump();
  EXPECT_EQ(j["exit_code"], 3) << j.dump();
  EXPECT_EQ(s().jobs_named(uid), 1);     // submitted once
  EXPECT_EQ(read("runs.txt"), "ran\n");  // and ran once
}

}  // namespace
}  // namespace yard::test
