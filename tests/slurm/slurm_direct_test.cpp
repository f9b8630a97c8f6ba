// Direct mode against a real Slurm 22.05 cluster (slurm_world.h): `--backend
// slurm-steps` runs jobs as srun steps of an allocation, beside indirect jobs, chosen per
// job by classes; MPMD through one mpirun; a pilot job as the daemon's own allocation;
// the components of a heterogeneous allocation.
#include "slurm_world.h"

namespace yard::test {
namespace {

TEST_F(SlurmWorld, DirectModeRunsStepsInAnAllocationBesideIndirectJobs) {
  std::string pilot = sh("sbatch --parsable -N2 -n 8 -p cpu -o /dev/null --wrap 'sleep 600'");
  while (!pilot.empty() && (pilot.back() == '\n')) pilot.pop_back();
  ASSERT_FALSE(pilot.empty());
  ASSERT_TRUE(wait_until([&] { return sh("squeue -h -o %T -j " + pilot).rfind("RUNNING", 0) == 0; }, 60));
  write("config/switchyard/slurm.yaml",
        "poll_interval: 0.5\ncalls_per_second: 4\nburst: 4\nallocation: " + pilot + "\njob_limit: 2\n");
  long two = slurm_submit({"--backend", "slurm-steps", "-n", "2", "--", "sh", "-c", "echo $SLURM_JOB_ID.$SLURM_STEP_ID"});
  long bad = submit({"--backend", "slurm-steps", "--", "sh", "-c", "exit 5"});
  long arr = submit({"--backend", "slurm-steps", "-a", "1-6", "-o", "/dev/null", "--", "sleep", "1"});
  long indirect = slurm_submit({"--", "true"});
  // Steps share the one allocation: a het job is refused, not squeezed into it.
  auto het = yard({"submit", "--backend", "slurm-steps", "-n", "1", ":", "-n", "1", "--", "true"});
  EXPECT_EQ(het.rc, 2);
  EXPECT_NE(het.err.find("cannot run on backend 'slurm-steps', whose steps share one allocation"), std::string::npos)
      << het.err;
  EXPECT_EQ(wait({two, bad, arr, indirect}), 1);
  auto t = job(two);
  EXPECT_EQ(t["state"], "COMPLETED");
  EXPECT_EQ(t["backend"], "slurm-steps");
  // Both tasks of one step, inside the pilot allocation (its step number depends on
  // which of the jobs started at the same moment reached Slurm first).
  auto out = yard({"logs", std::to_string(two)}).out;
  auto first = out.substr(0, out.find('\n') + 1);
  EXPECT_EQ(first.rfind(pilot + ".", 0), 0u) << out;
  EXPECT_EQ(out, first + first);
  auto b = job(bad);
  EXPECT_EQ(b["state"], "FAILED");
  EXPECT_EQ(b["exit_code"], 5);
  EXPECT_EQ(job(indirect)["state"], "COMPLETED");
  EXPECT_NE(job(indirect)["native_id"], pilot);
  // job_limit 2: never more than two steps at once (yard's own start and end times).
  auto elems = status({arr});
  ASSERT_EQ(elems.size(), 6u);
  std::vector<std::pair<std::string, int>> edges;
  for (auto& e : elems) {
    EXPECT_EQ(e["state"], "COMPLETED");
    edges.push_back({e["start_time"].get<std::string>(), +1});
    edges.push_back({e["end_time"].get<std::string>(), -1});
  }
  std::sort(edges.begin(), edges.end(), [](auto& x, auto& y) { return x.first != y.first ? x.first < y.first : x.second < y.second; });
  int now = 0, peak = 0;
  for (auto& [when, d] : edges) peak = std::max(peak, now += d);
  EXPECT_LE(peak, 2);
  // Slurm saw the steps in the allocation, named after the jobs' UIDs.
  EXPECT_TRUE(wait_until([&] { return sh("sacct -n -P -o JobName -j " + pilot).find(t["uid"].get<std::string>()) != std::string::npos; }, 30));
  sh("scancel " + pilot);
}

// Hybrid per class (Melissa's slurm-semiglobal): slurm.yaml's classes choose the backend,
// so one daemon sends a `batch` job through sbatch and a `steps` job as an srun step of
// the allocation, with nothing but --class on the command line.
TEST_F(SlurmWorld, ClassesChooseIndirectOrDirectPerJob) {
  std::string pilot = sh("sbatch --parsable -N1 -n 4 -p cpu -o /dev/null --wrap 'sleep 600'");
  while (!pilot.empty() && (pilot.back() == '\n')) pilot.pop_back();
  ASSERT_FALSE(pilot.empty());
  ASSERT_TRUE(wait_until([&] { return sh("squeue -h -o %T -j " + pilot).rfind("RUNNING", 0) == 0; }, 60));
  write("config/switchyard/slurm.yaml", "poll_interval: 0.5\ncalls_per_second: 4\nallocation: " + pilot +
                                            "\nclasses:\n  steps: slurm-steps\n  batch:\n    backend: slurm\n"
                                            "    partition: gpu\n    time: \"0:07:00\"\n");
  const std::string show = "echo $SLURM_JOB_ID.${SLURM_STEP_ID:-batch} $SLURM_JOB_PARTITION";
  long batch = submit({"--class", "batch", "--", "sh", "-c", show});
  long step = submit({"--class", "steps", "--", "sh", "-c", show});
  ASSERT_EQ(wait({batch, step}), 0) << diag();
  auto b = job(batch), st = job(step);
  // batch: its own Slurm job, through sbatch, on the class's partition and time limit.
  EXPECT_EQ(b["backend"], "slurm");
  ASSERT_TRUE(b["native_id"].is_string()) << b.dump();
  const auto native = b["native_id"].get<std::string>();
  EXPECT_NE(native, pilot);
  EXPECT_EQ(yard({"logs", std::to_string(batch)}).out, native + ".batch gpu\n");
  std::string limit;  // sacct trails the controller by a moment
  EXPECT_TRUE(wait_until([&] { return (limit = sh("sacct -n -P -X -o Timelimit -j " + native)) == "00:07:00\n"; }, 30))
      << limit;
  // steps: a step of the allocation, no Slurm job of its own.
  EXPECT_EQ(st["backend"], "slurm-steps");
  EXPECT_TRUE(st["native_id"].is_null()) << st.dump();
  auto out = yard({"logs", std::to_string(step)}).out;
  EXPECT_EQ(out.rfind(pilot + ".", 0), 0u) << out;
  EXPECT_EQ(out.find("batch"), std::string::npos) << out;
  // An unknown class: exit 2, named with the known ones, nothing stored.
  const auto before = status().size();
  auto bad = yard({"submit", "--class", "nosuch", "--", "true"});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("unknown class 'nosuch' (known: batch, steps)"), std::string::npos) << bad.err;
  auto clash = yard({"submit", "--class", "steps", "--backend", "slurm", "--", "true"});
  EXPECT_EQ(clash.rc, 2);
  EXPECT_NE(clash.err.find("class 'steps' runs on backend 'slurm-steps', but --backend slurm was given"),
            std::string::npos)
      << clash.err;
  EXPECT_EQ(status().size(), before);
  // The classes still work, and the daemon's log says where size classes moved.
  EXPECT_NE(read("state/switchyard/daemon.log").find("slurm.yaml: classes: size classes, and each one's queue on every "
                                                     "scheduler, are now routes.yaml's (docs/ROUTES.md)"),
            std::string::npos);
  sh("scancel " + pilot);
}

// Melissa's slurm-openmpi: one mpirun inside the allocation runs two programs (MPMD) in
// one MPI world; it finds the allocation in its environment and starts its daemon as a
// step of it.
TEST_F(SlurmWorld, DirectModeRunsAnMpmdJobThroughOneMpirun) {
  std::string pilot = sh("sbatch --parsable -N1 -n 4 -p cpu -o /dev/null --wrap 'sleep 600'");
  while (!pilot.empty() && (pilot.back() == '\n')) pilot.pop_back();
  ASSERT_FALSE(pilot.empty());
  ASSERT_TRUE(wait_until([&] { return sh("squeue -h -o %T -j " + pilot).rfind("RUNNING", 0) == 0; }, 60));
  write("config/switchyard/slurm.yaml", "poll_interval: 0.5\nallocation: " + pilot + "\n");
  write("rank.sh", "#!/bin/sh\necho \"$1 rank=$OMPI_COMM_WORLD_RANK app=$OMPI_MCA_orte_app_num size=$OMPI_COMM_WORLD_SIZE\"\n");
  fs::permissions(dir_ + "/rank.sh", fs::perms::owner_all);
  long id = submit({"--backend", "slurm-steps", "--launcher", "mpirun", "-n", "1", "./rank.sh", "a", ":", "-n", "2",
                    "./rank.sh", "b"});
  ASSERT_EQ(wait({id}), 0) << diag() << yard({"logs", std::to_string(id)}).out;
  auto j = job(id);
  EXPECT_EQ(j["cpus"], 3);  // the app contexts' tasks in all
  std::istringstream in(yard({"logs", std::to_string(id)}).out);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::string>{"a rank=0 app=0 size=3", "b rank=1 app=1 size=3", "b rank=2 app=1 size=3"}));
  // mpirun's daemon ran as a step of the allocation, named after the job.
  EXPECT_TRUE(wait_until(
      [&] { return sh("sacct -n -P -o JobName -j " + pilot).find(j["uid"].get<std::string>()) != std::string::npos; }, 30));
  sh("scancel " + pilot);
}

// allocation: pilot: the daemon obtains the allocation itself, serves steps in it once
// it runs, finds it again by name after a crash (not a second pilot), and cancels it
// when stopped.
TEST_F(SlurmWorld, APilotJobIsTheDaemonsOwnAllocationFoundAgainAfterACrashCancelledOnStop) {
  write("config/switchyard/slurm.yaml",
        "poll_interval: 0.5\ncalls_per_second: 4\nallocation: pilot\n"
        "pilot:\n  partition: cpu\n  nodes: 1\n  cpus: 3\n  time: \"0:20:00\"\n");
  const std::string show = "echo $SLURM_JOB_ID.$SLURM_STEP_ID";
  // Submitted before the pilot runs: it waits for it, the daemon does not.
  long first = submit({"--backend", "slurm-steps", "--", "sh", "-c", show});
  auto server = nlohmann::json::parse(yard({"server", "status", "--json"}).out);
  ASSERT_TRUE(server["pilot"].is_object()) << server.dump();
  const std::string name = server["pilot"]["name"].get<std::string>();
  EXPECT_EQ(name.rfind("yard-pilot-root-", 0), 0u) << name;
  ASSERT_EQ(wait({first}), 0) << diag();
  auto out = yard({"logs", std::to_string(first)}).out;
  const std::string pilot = out.substr(0, out.find('.'));
  // The pilot: one batch job of that name, running, the size asked for.
  auto listing = sh("squeue --me -h -n " + name + " -o '%i|%T|%C|%P'");
  EXPECT_EQ(listing, pilot + "|RUNNING|3|cpu\n") << listing;
  server = nlohmann::json::parse(yard({"server", "status", "--json"}).out);
  EXPECT_EQ(server["pilot"]["job_id"], pilot);
  EXPECT_EQ(server["slurm_steps"]["cpus"], 3);
  // A crash of the daemon: the next one finds the same pilot by its name.
  long pid = daemon_pid();
  ::kill(static_cast<pid_t>(pid), SIGKILL);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 30));
  long second = submit({"--backend", "slurm-steps", "--", "sh", "-c", show});
  ASSERT_EQ(wait({second}), 0) << diag();
  EXPECT_EQ(yard({"logs", std::to_string(second)}).out.rfind(pilot + ".", 0), 0u)
      << yard({"logs", std::to_string(second)}).out;
  EXPECT_EQ(sh("squeue --me -h -n " + name + " -o %i"), pilot + "\n");
  EXPECT_NE(read("state/switchyard/daemon.log").find("found " + name + " again: job " + pilot), std::string::npos)
      << diag();
  // Stopped: the pilot is cancelled.
  pid = daemon_pid();
  ASSERT_EQ(yard({"server", "stop"}).rc, 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 60));
  std::string state;
  EXPECT_TRUE(wait_until(
      [&] { return (state = sh("sacct -n -P -X -o State -j " + pilot)).rfind("CANCELLED", 0) == 0; }, 30))
      << state;
  // Only ever one pilot (the accounting by name trails a moment).
  std::string pilots;
  EXPECT_TRUE(wait_until(
      [&] { return (pilots = sh("sacct -n -P -X -o JobID --name=" + name + " -S now-3600")) != ""; }, 30));
  EXPECT_EQ(pilots, pilot + "\n");
  sh("scancel " + pilot);
  // Stopped again as soon as started, its pilot being looked up or submitted: the daemon
  // waits for that answer and leaves no pilot behind (slurm_pilot_test.cpp stops one
  // while sbatch runs, on a scripted Slurm).
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  pid = daemon_pid();
  ASSERT_EQ(yard({"server", "stop"}).rc, 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 60));
  EXPECT_EQ(sh("squeue -h -n " + name + " -t PENDING,CONFIGURING,RUNNING -o %i"), "") << diag();
  // Nothing for the world's tear-down to start one again.
  write("config/switchyard/slurm.yaml", "poll_interval: 0.5\ncalls_per_second: 4\n");
}

// A heterogeneous allocation (cpu and gpu components): scontrol prints a line per
// component; the daemon reads them all and runs its steps in component 0, sized to it.
TEST_F(SlurmWorld, DirectModeInAHeterogeneousAllocationRunsStepsInTheComponentTheJobChooses) {
  std::string het =
      sh("sbatch --parsable -p cpu -N 2 -n 4 -o /dev/null : -p gpu -n 2 --gres=gpu:2 --wrap 'sleep 600'");
  while (!het.empty() && (het.back() == '\n')) het.pop_back();
  ASSERT_FALSE(het.empty());
  ASSERT_TRUE(wait_until([&] { return sh("squeue -h -o %T -j " + het + " | sort -u") == "RUNNING\n"; }, 60));
  write("config/switchyard/slurm.yaml", "poll_interval: 0.5\nallocation: " + het + "\n");
  long id = submit({"--backend", "slurm-steps", "-n", "2", "--", "sh", "-c",
                    "echo $SLURM_JOB_ID.$SLURM_STEP_ID $SLURM_JOB_PARTITION"});
  ASSERT_EQ(wait({id}), 0) << diag();
  auto out = yard({"logs", std::to_string(id)}).out;
  auto first = out.substr(0, out.find('\n') + 1);
  EXPECT_EQ(first.rfind(het + ".", 0), 0u) << out;
  EXPECT_NE(first.find(" cpu\n"), std::string::npos) << out;
  EXPECT_EQ(out, first + first);  // both tasks of one step
  auto server = nlohmann::json::parse(yard({"server", "status", "--json"}).out);
  EXPECT_EQ(server["slurm_steps"]["cpus"], 4) << server.dump();  // component 0's, not 4 + 2
  EXPECT_EQ(server["slurm_steps"]["nodes"], 2) << server.dump();
  // Each component has its own capacity; a job chooses its component.
  ASSERT_EQ(server["slurm_steps"]["components"].size(), 2u) << server.dump();
  EXPECT_EQ(server["slurm_steps"]["components"][1]["cpus"], 2) << server.dump();
  EXPECT_EQ(server["slurm_steps"]["components"][1]["gpus"], 2) << server.dump();
  long gpu = submit({"--backend", "slurm-steps", "--het-group", "1", "-n", "1", "--gpus", "1", "--", "sh", "-c",
                     "echo $SLURM_JOB_PARTITION"});
  ASSERT_EQ(wait({gpu}), 0) << diag();
  EXPECT_EQ(yard({"logs", std::to_string(gpu)}).out, "gpu\n");
  // What a component cannot hold is refused, naming the figures of that component: a
  // valid job too large for it (1, as srun's "Requested node configuration is not
  // available"), not bad input.
  auto big = yard({"submit", "--backend", "slurm-steps", "--het-group", "1", "-n", "3", "--", "true"});
  EXPECT_EQ(big.rc, 1);
  EXPECT_NE(big.err.find("asks for 3 CPUs"), std::string::npos) << big.err;
  auto none = yard({"submit", "--backend", "slurm-steps", "--het-group", "2", "--", "true"});
  EXPECT_EQ(none.rc, 2);
  EXPECT_NE(none.err.find("the allocation has 2 components (0 to 1)"), std::string::npos) << none.err;
  // After a crash each component's backend adopts its own running steps only.
  long held = submit({"--backend", "slurm-steps", "--het-group", "1", "--", "sh", "-c",
                      "while [ ! -e go ]; do sleep 0.1; done; echo $SLURM_JOB_PARTITION"});
  ASSERT_TRUE(wait_until([&] { return job(held)["state"] == "RUNNING"; }, 30)) << diag();
  const long pid = daemon_pid();
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 10));
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  server = nlohmann::json::parse(yard({"server", "status", "--json"}).out);
  EXPECT_EQ(server["slurm_steps"]["components"][1]["running"], 1) << server.dump();
  EXPECT_EQ(server["slurm_steps"]["components"][0]["running"], 0) << server.dump();
  write("go", "");
  ASSERT_EQ(wait({held}), 0) << diag();
  EXPECT_EQ(yard({"logs", std::to_string(held)}).out, "gpu\n");
  sh("scancel " + het);
}

TEST_F(SlurmWorld, DirectModeWithoutAnAllocationIsAClearError) {
  auto o = yard({"submit", "--backend", "slurm-steps", "--", "true"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_NE(o.err.find("inside a Slurm allocation"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace yard::test
