// `yard --backend slurm` against a real Slurm 22.05 cluster (slurm_world.h): the
// life-cycle suite (tests/lifecycle: outcomes, arrays and dependencies, hostile values,
// cancel, a rejected partition, crashes after sbatch), then what is Slurm's own: scripts
// with #SBATCH lines, after/aftercorr/'?', het jobs, LOST, a job the controller forgot
// while yard was down, a controller that goes down, the cap on background calls.
#include "../lifecycle/lifecycle_world.h"
#include "slurm_world.h"

namespace yard::test {
namespace {

// sacct's record of `native` once it has ended: the ExitCode of its batch step, where
// the script ran ("0:15": killed by SIGTERM; the allocation's own line says 0:0 of a
// cancelled job), as a signal number when there is one, else the exit status.
std::optional<long> sacct_exit(const std::string& native) {
  std::istringstream in(sh("sacct -n -P -o JobID,State,ExitCode -j " + native + " 2>/dev/null"));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(native + ".batch|", 0) != 0) continue;
    const auto bar = line.rfind('|'), colon = line.rfind(':');
    const std::string state = line.substr(native.size() + 7, bar - native.size() - 7);
    for (const char* live : {"PENDING", "RUNNING", "COMPLETING", "REQUEUED", "SUSPENDED"})
      if (state.rfind(live, 0) == 0) return std::nullopt;
    if (colon == std::string::npos || colon < bar) return std::nullopt;
    const long status = std::atol(line.c_str() + bar + 1), signal = std::atol(line.c_str() + colon + 1);
    return signal ? signal : status;
  }
  return std::nullopt;
}

// How many Slurm jobs carry `uid` in their name, by the accounting (which trails the
// controller: at least one is waited for).
int slurm_jobs_named(const std::string& uid) {
  std::set<std::string> ids;
  wait_until(
      [&] {
        std::istringstream in(sh("sacct -X -n -P -a -S now-3600 -o JobIDRaw,JobName 2>/dev/null"));
        for (std::string line; std::getline(in, line);)
          if (line.find(uid) != std::string::npos) ids.insert(line.substr(0, line.find('|')));
        return !ids.empty();
      },
      30);
  return static_cast<int>(ids.size());
}

const SchedulerUnderTest kSlurm{
    .backend = "slurm",
    .submit_command = "sbatch",
    .cancel_command = "scancel",
    .jobid_variable = "SLURM_JOB_ID",
    .cpus = 16,  // a node of partition cpu
    .yaml_extra = "",
    .walltime_line = "#SBATCH --time=00:00:02",  // Slurm counts minutes: ended after one
    .array = "1-4%2",
    .array_line = "#SBATCH --array=1-4%2",
    .afterany_array_line = [](const std::string& base) { return "#SBATCH --dependency=afterany:" + base; },
    .unexpressible = {},  // sbatch says everything yard does
    .unknown_queue_words = "sbatch: error: invalid partition specified: nosuchq",
    .exit_status = sacct_exit,
    .killed_statuses = {15, 9},
    .jobs_named = slurm_jobs_named,
    .outage = nullptr,
    .held_there = [](const std::string& native) {
      std::string r = sh("squeue -h -j " + native + " -o %r 2>/dev/null");
      return r.rfind("JobHeldUser", 0) == 0;
    },
};

// The controller's outage is Slurm's own test below (100 jobs, 20 s).
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LifeCycleOutageWorld);
INSTANTIATE_TEST_SUITE_P(SlurmCluster, LifeCycleWorld, ::testing::Values(&kSlurm), scheduler_name);
INSTANTIATE_TEST_SUITE_P(SlurmCluster, LifeCycleCrashWorld, ::testing::Values(&kSlurm), scheduler_name);

TEST_F(SlurmWorld, BatchScriptsWithSbatchLinesAreHonouredAndSavedBesideTheJob) {
  write("job.sh",
        "#!/bin/bash\n#SBATCH -J from-script\n#SBATCH -c 2\n#SBATCH -t 5\necho cpus=$SLURM_CPUS_PER_TASK\n");
  long id = slurm_submit({"-c", "3", "job.sh"});  // the command line wins
  ASSERT_EQ(wait({id}), 0);
  auto j = job(id);
  EXPECT_EQ(j["name"], "from-script");
  EXPECT_EQ(j["cpus"], 3);
  EXPECT_EQ(yard({"logs", std::to_string(id)}).out, "cpus=3\n");
  auto script = dir_ + "/state/switchyard/slurm/" + j["uid"].get<std::string>() + ".sh";
  ASSERT_TRUE(fs::exists(script)) << script;
  std::ifstream f(script);
  std::string text((std::istreambuf_iterator<char>(f)), {});
  EXPECT_NE(text.find("#SBATCH --time="), std::string::npos) << text;
}

// after, aftercorr and '?' on the real Slurm: after and aftercorr are Slurm's own (the
// batch script says them with Slurm's ids); '?' is judged by yard.
TEST_F(SlurmWorld, AfterAftercorrAndAnyOneOfThemOnTheRealSlurm) {
  long gate = slurm_submit({"--", "sh", "-c", "while [ ! -e go ]; do sleep 0.1; done"});
  long after = slurm_submit({"-d", "after:" + std::to_string(gate), "--", "touch", "go"});  // opens the gate
  ASSERT_EQ(wait({gate, after}), 0) << diag();
  // The parent's second element fails once the child's first has run: Slurm 22.05 holds
  // an array's elements not yet started as one record, which a failed counterpart of any
  // of them would keep from running.
  long parent = slurm_submit({"-a", "1-2", "--", "sh", "-c",
                              "[ $SLURM_ARRAY_TASK_ID = 1 ] || { while [ ! -e child-1 ]; do sleep 0.1; done; exit 1; }"});
  long child = slurm_submit({"-a", "1-2", "-d", "aftercorr:" + std::to_string(parent), "--", "sh", "-c",
                             "touch child-$SLURM_ARRAY_TASK_ID"});
  long either = slurm_submit({"-d", "afterok:" + std::to_string(parent + 1) + "?afterok:" + std::to_string(parent),
                              "--", "true"});
  wait({parent, parent + 1, child, child + 1, either});
  EXPECT_EQ(job(parent + 1)["state"], "FAILED");
  EXPECT_EQ(job(child)["state"], "COMPLETED") << diag();
  EXPECT_EQ(job(child + 1)["state"], "CANCELLED");
  EXPECT_EQ(job(child + 1)["reason"], "DependencyNeverSatisfied");
  EXPECT_EQ(job(either)["state"], "COMPLETED");
  auto script = dir_ + "/state/switchyard/slurm/" + job(child)["uid"].get<std::string>() + ".sh";
  std::ifstream f(script);
  std::string text((std::istreambuf_iterator<char>(f)), {});
  const std::string native = job(parent)["native_id"].get<std::string>();
  EXPECT_NE(text.find("#SBATCH --dependency=aftercorr:" + native.substr(0, native.find('_')) + "\n"), std::string::npos)
      << text;
}

// (An unknown partition: the life-cycle suite.)
TEST_F(SlurmWorld, MoreGpusThanANodeHasAreRejectedWithSlurmsMessage) {
  long too_many_gpus = slurm_submit({"-p", "gpu", "--gpus", "3", "--", "true"});
  EXPECT_EQ(wait({too_many_gpus}), 1);
  auto b = job(too_many_gpus);
  EXPECT_EQ(b["state"], "FAILED");
  EXPECT_NE(b["reason"].get<std::string>().find("rejected by slurm"), std::string::npos) << b["reason"];
}

TEST_F(SlurmWorld, AHetJobRunsItsComponentsTogetherOnTwoPartitions) {
  long id = slurm_submit({"-J", "het", "-p", "cpu", "-n", "2", ":", "-p", "gpu", "--gpus", "1", "--", "sh", "-c",
                          "echo size=$SLURM_HET_SIZE; srun --het-group=1 -n 1 sh -c 'echo gpus=$CUDA_VISIBLE_DEVICES'"});
  ASSERT_EQ(wait({id}), 0) << diag();
  auto j = job(id);
  EXPECT_EQ(j["state"], "COMPLETED");
  EXPECT_EQ(j["exit_code"], 0);
  // One yard job under the base id; the script ran once, in component 0, and reached
  // component 1's GPU.
  auto native = j["native_id"].get<std::string>();
  EXPECT_EQ(native.find_first_not_of("0123456789"), std::string::npos) << native;
  EXPECT_EQ(yard({"logs", std::to_string(id)}).out, "size=2\ngpus=0\n");
  // Both components, on their partitions, started at the same time.
  std::string acct;
  ASSERT_TRUE(wait_until(
      [&] {
        acct = sh("sacct -n -P -X -j " + native + " -o JobID,Partition,State,Start 2>&1");
        return std::count(acct.begin(), acct.end(), '\n') == 2 && acct.find("COMPLETED") != std::string::npos &&
               acct.rfind("COMPLETED") != acct.find("COMPLETED");
      },
      30))
      << acct;
  std::istringstream in(acct);
  std::string line0, line1;
  std::getline(in, line0);
  std::getline(in, line1);
  EXPECT_EQ(line0.substr(0, line0.find('|')), native + "+0") << acct;
  EXPECT_EQ(line1.substr(0, line1.find('|')), native + "+1") << acct;
  EXPECT_NE(line0.find("|cpu|"), std::string::npos) << acct;
  EXPECT_NE(line1.find("|gpu|"), std::string::npos) << acct;
  EXPECT_EQ(line0.substr(line0.rfind('|')), line1.substr(line1.rfind('|'))) << acct;  // same Start
  // The batch script is saved with its hetjob separator.
  std::ifstream f(dir_ + "/state/switchyard/slurm/" + j["uid"].get<std::string>() + ".sh");
  std::string text((std::istreambuf_iterator<char>(f)), {});
  EXPECT_NE(text.find("#SBATCH hetjob\n"), std::string::npos) << text;
}

TEST_F(SlurmWorld, AHetJobWhoseComponentCanNeverRunFailsWithSlurmsMessage) {
  long id = slurm_submit({"-p", "cpu", "-n", "1", ":", "-p", "gpu", "--gpus", "3", "--", "true"});
  EXPECT_EQ(wait({id}), 1);
  auto j = job(id);
  EXPECT_EQ(j["state"], "FAILED");
  auto reason = j["reason"].get<std::string>();
  EXPECT_NE(reason.find("rejected by slurm"), std::string::npos) << reason;
  EXPECT_NE(reason.find("Requested node configuration is not available"), std::string::npos) << reason;
}

TEST_F(SlurmWorld, AJobThatVanishesFromQueueAndAccountingBecomesLost) {
  write("config/switchyard/slurm.yaml", "poll_interval: 0.5\ncalls_per_second: 4\nburst: 4\nlost_after: 3\n");
  long id = slurm_submit({"--", "sleep", "300"});
  ASSERT_TRUE(wait_state(id, "RUNNING"));
  auto real = job(id)["native_id"].get<std::string>();
  long pid = daemon_pid();
  ASSERT_EQ(yard({"server", "stop"}).rc, 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 30));
  // As if Slurm had forgotten it: an id neither squeue nor sacct knows.
  int rc = 0;
  sh("sqlite3 " + dir_ + "/state/switchyard/store.db \"UPDATE jobs SET native_id = '99999999' WHERE id = " +
         std::to_string(id) + "\"",
     &rc);
  ASSERT_EQ(rc, 0);
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  ASSERT_TRUE(wait_state(id, "LOST", 60)) << job(id).dump();
  EXPECT_NE(job(id)["reason"].get<std::string>().find("gone from both"), std::string::npos);
  sh("scancel " + real);
}

// The life-cycle suite's crash (the daemon killed between sbatch and storing the id), but
// the job runs and ends while yard is down, and the controller forgets it (MinJobAge=60 in scripts/slurm/start.sh) before yard comes back: squeue no
// longer shows it, the accounting does. Found by name there, it ends with its true
// outcome, submitted once.
TEST_F(SlurmWorld, CrashAfterSbatchFindsAJobThatAlreadyLeftTheQueueInTheAccounting) {
  fs::create_directories(dir_ + "/slowbin");
  write("slowbin/sbatch", "#!/bin/sh\n/usr/bin/sbatch \"$@\"\nrc=$?\necho $$ > " + dir_ +
                              "/sbatch-returned\nsleep 300\nexit $rc\n");
  fs::permissions(dir_ + "/slowbin/sbatch", fs::perms::owner_all);
  std::string path = std::string("PATH=") + dir_ + "/slowbin:" + std::getenv("PATH");
  ASSERT_EQ(yard({"server", "start"}, {path}).rc, 0) << diag();
  long pid = daemon_pid();
  long id = slurm_submit({"-J", "gone", "--", "sh", "-c", "echo ran >> runs.txt; exit 3"});
  ASSERT_TRUE(wait_until([&] { return fs::exists(dir_ + "/sbatch-returned"); }, 60));
  ::kill(static_cast<pid_t>(pid), SIGKILL);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 30));
  long wrapper = std::atol(read("sbatch-returned").c_str());
  if (wrapper > 0) ::kill(static_cast<pid_t>(-wrapper), SIGKILL);
  auto uid = stored_job(id)["uid"].get<std::string>();
  ASSERT_TRUE(stored_job(id)["native_id"].is_null());
  // Slurm ran it; then the controller purges it (MinJobAge, checked about once a minute).
  auto in_squeue = [&] { return sh("squeue --me -h -t all -o '%i|%j'").find(uid) != std::string::npos; };
  std::string native;
  ASSERT_TRUE(wait_until(
      [&] {
        std::istringstream in(sh("sacct -X -n -P -o JobIDRaw,State,JobName -S now-3600 2>/dev/null"));
        for (std::string line; std::getline(in, line);)
          if (line.find(uid) != std::string::npos && line.find("|FAILED|") != std::string::npos)
            native = line.substr(0, line.find('|'));
        return !native.empty();
      },
      60));
  ASSERT_TRUE(wait_until([&] { return !in_squeue(); }, 240)) << "the controller never forgot job " << native;
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  EXPECT_EQ(wait({id}), 1);
  auto j = job(id);
  EXPECT_EQ(j["state"], "FAILED") << j.dump();
  EXPECT_EQ(j["exit_code"], 3) << j.dump();
  EXPECT_EQ(j["native_id"], native);
  EXPECT_EQ(native_jobs_named(uid), 1);  // submitted once
  EXPECT_EQ(read("runs.txt"), "ran\n");  // and ran once
  EXPECT_NE(read("state/switchyard/daemon.log").find("its record is in the history"), std::string::npos)
      << diag();
}

TEST_F(SlurmWorld, ControllerDown20sWith100JobsNoneLostNoneTwice) {
  const std::string state = state_dir();
  ASSERT_FALSE(state.empty());
  std::vector<long> ids;
  // 100 jobs on 32 CPUs that hold them until `go` exists: some run while others queue,
  // however long submitting takes (as under the sanitizers on a slow machine).
  for (int i = 0; i < 100; ++i)
    ids.push_back(slurm_submit({"-o", "/dev/null", "--", "sh", "-c", "while [ ! -e go ]; do sleep 0.2; done"}));
  // Some queued, some running: then the controller goes away for 20 s.
  auto count = [&](const std::string& wanted) {
    int n = 0;
    for (auto& j : status()) n += j["state"] == wanted;
    return n;
  };
  ASSERT_TRUE(wait_until([&] { return count("RUNNING") > 0 && count("PENDING") > 0; }, 120)) << diag();
  std::string ctld_pid = sh("cat " + state + "/run/slurmctld.pid");
  ASSERT_FALSE(ctld_pid.empty());
  ASSERT_EQ(::kill(static_cast<pid_t>(std::stol(ctld_pid)), SIGTERM), 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(std::stol(ctld_pid)); }, 30));
  // The outage itself lasts 20 s (this is the scenario, not a wait for a condition);
  // jobs submitted meanwhile hit the dead controller.
  for (int i = 0; i < 5; ++i) ids.push_back(slurm_submit({"-o", "/dev/null", "--", "true"}));
  std::this_thread::sleep_for(std::chrono::seconds(20));
  int rc = 0;
  sh("bash " YARD_SOURCE_DIR "/scripts/slurm/start.sh " + state + " >/dev/null 2>&1", &rc);
  ASSERT_EQ(rc, 0) << "the controller did not come back";
  write("go", "");
  ASSERT_TRUE(wait_until(
      [&] {
        for (auto& j : status())
          if (j["state"] != "COMPLETED" && j["state"] != "FAILED" && j["state"] != "LOST" && j["state"] != "CANCELLED")
            return false;
        return true;
      },
      240))
      << diag();
  auto all = status();
  ASSERT_EQ(all.size(), 105u);
  std::set<std::string> natives;
  for (auto& j : all) {
    EXPECT_EQ(j["state"], "COMPLETED") << j.dump();
    natives.insert(j["native_id"].is_string() ? j["native_id"].get<std::string>() : "");
  }
  EXPECT_EQ(natives.size(), 105u);
  for (long id : {ids[0], ids[50], ids[104]}) EXPECT_EQ(native_jobs_named(job(id)["uid"]), 1) << id;
  // Whatever the number of jobs, background calls stayed under the configured cap.
  auto server = nlohmann::json::parse(yard({"server", "status", "--json"}).out);
  EXPECT_GT(server["slurm_calls"]["failed"].get<int>(), 0);  // the outage was seen, and survived
}

TEST_F(SlurmWorld, BackgroundCallsStayUnderTheCapWhateverTheNumberOfJobs) {
  write("config/switchyard/slurm.yaml", "poll_interval: 0.1\ncalls_per_second: 2\nburst: 2\n");
  auto calls = [&] {
    auto s = nlohmann::json::parse(yard({"server", "status", "--json"}).out)["slurm_calls"];
    return s["poll"].get<long>() + s["history"].get<long>() + s["find"].get<long>();
  };
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  const long before = calls();
  const auto t0 = std::chrono::steady_clock::now();
  long arr = slurm_submit({"-a", "1-96", "-o", "/dev/null", "--", "sleep", "2"});
  ASSERT_EQ(wait({arr}), 0);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const long made = calls() - before;
  // Status cycles asked for every 0.1 s, 96 jobs: still at most 2 calls a second (+ burst).
  EXPECT_LE(made, static_cast<long>(2 * secs + 2)) << made << " calls in " << secs << " s";
  EXPECT_GE(made, 2) << "no status calls at all";
}


// Direct mode (Melissa's slurm-global) and hybrid: a pilot batch job holds an allocation;
// `--backend slurm-steps` jobs run as srun steps inside it, at most job_limit at once,
// while `--backend slurm` jobs of the same daemon go through sbatch.
}  // namespace
}  // namespace yard::test
