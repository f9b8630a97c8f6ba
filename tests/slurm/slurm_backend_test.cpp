// `yard --backend slurm` against a real Slurm 22.05 cluster (scripts/slurm/start.sh,
// started once for all these tests by the CTest fixture in CMakeLists.txt; SLURM_CONF and
// YARD_SLURM_STATE name it). Every test has its own yard world (HOME, daemon, store);
// the tests run one at a time (they share the cluster), and each cancels its Slurm jobs
// when it ends.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "../integration/harness.h"

namespace yard::test {
namespace {

namespace fs = std::filesystem;

// A shell command's stdout (test scaffolding only: the product never uses a shell).
std::string sh(const std::string& cmd, int* rc = nullptr) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = ::pclose(p);
  if (rc) *rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

// The cluster's state directory: SLURM_CONF is <state>/etc/slurm.conf.
std::string state_dir() {
  const char* conf = std::getenv("SLURM_CONF");
  return conf ? fs::path(conf).parent_path().parent_path().string() : "";
}

class SlurmWorld : public YardWorld {
 protected:
  void SetUp() override {
    ASSERT_NE(std::getenv("SLURM_CONF"), nullptr) << "run through ctest: the fixture starts the cluster";
    YardWorld::SetUp();
    fs::create_directories(dir_ + "/config/switchyard");
    // Fast cycles for short tests; LOST only after 30 s of absence (sacct trails squeue).
    write("config/switchyard/slurm.yaml", "poll_interval: 0.5\ncalls_per_second: 4\nburst: 4\nlost_after: 30\n");
  }
  void TearDown() override {
    // This world's jobs only: their native ids from its own store.
    for (auto& j : status())
      if (!j["native_id"].is_null()) sh("scancel " + j["native_id"].get<std::string>() + " 2>/dev/null");
    YardWorld::TearDown();
  }
  long slurm_submit(std::vector<std::string> args) {
    args.insert(args.begin(), {"--backend", "slurm"});
    return submit(args);
  }
  // What to look at when a test fails: yard's view, Slurm's, and the daemon's log.
  std::string diag() {
    return "\nyard status:\n" + yard({"status"}).out + "squeue:\n" + sh("squeue -a 2>&1") + "daemon.log:\n" +
           sh("tail -20 " + dir_ + "/state/switchyard/daemon.log");
  }
  bool wait_state(long id, const std::string& state, double seconds = 60) {
    return wait_until([&] { return job(id)["state"] == state; }, seconds);
  }
  // How many Slurm jobs (in the accounting, whatever their state) carry `uid` in their name.
  int native_jobs_named(const std::string& uid) {
    std::string out = sh("sacct -X -n -P -a -S now-3600 -o JobIDRaw,JobName 2>/dev/null");
    std::set<std::string> ids;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
      if (line.find(uid) != std::string::npos) ids.insert(line.substr(0, line.find('|')));
    return static_cast<int>(ids.size());
  }
};

TEST_F(SlurmWorld, JobsReachTheirTrueOutcomeWithExitCodesAndOutput) {
  long ok = slurm_submit({"-J", "ok", "--", "sh", "-c", "echo out-$SLURM_JOB_ID"});
  long three = slurm_submit({"--", "sh", "-c", "exit 3"});
  long killed = slurm_submit({"--", "sh", "-c", "kill -9 $$"});
  EXPECT_EQ(wait({ok, three, killed}), 1);  // not all COMPLETED
  auto a = job(ok), b = job(three), c = job(killed);
  EXPECT_EQ(a["state"], "COMPLETED");
  EXPECT_EQ(a["exit_code"], 0);
  ASSERT_TRUE(a["native_id"].is_string());
  EXPECT_TRUE(a["start_time"].is_string());
  EXPECT_TRUE(a["end_time"].is_string());
  EXPECT_EQ(yard({"logs", std::to_string(ok)}).out, "out-" + a["native_id"].get<std::string>() + "\n");
  EXPECT_EQ(b["state"], "FAILED");
  EXPECT_EQ(b["exit_code"], 3);
  EXPECT_EQ(c["state"], "FAILED");
  EXPECT_EQ(c["signal"], 9);
  // The same fields as any local job.
  for (auto key : {"id", "name", "state", "exit_code", "submit_time", "start_time", "end_time", "cpus", "mem_bytes",
                   "gpus", "max_rss_bytes", "cpu_seconds"})
    EXPECT_TRUE(a.contains(key)) << key;
}

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

TEST_F(SlurmWorld, ArraysAndDependenciesBetweenYardJobsBecomeNativeOnes) {
  long arr = slurm_submit({"-a", "1-4%2", "-o", "arr-%a.out", "--", "sh", "-c", "echo $SLURM_ARRAY_TASK_ID"});
  long after = slurm_submit({"-d", "afterok:" + std::to_string(arr), "--", "sh", "-c", "ls arr-*.out | wc -l"});
  ASSERT_EQ(wait({arr, after}), 0) << diag();
  for (int i = 1; i <= 4; ++i) EXPECT_EQ(read("arr-" + std::to_string(i) + ".out"), std::to_string(i) + "\n");
  EXPECT_EQ(yard({"logs", std::to_string(after)}).out, "4\n");  // ran after every element
  auto elems = status({arr});
  ASSERT_EQ(elems.size(), 4u);
  auto base = elems[0]["native_id"].get<std::string>();
  EXPECT_EQ(base.substr(base.find('_')), "_1");
  auto script = dir_ + "/state/switchyard/slurm/" + elems[0]["uid"].get<std::string>() + ".sh";
  std::ifstream f(script);
  std::string text((std::istreambuf_iterator<char>(f)), {});
  EXPECT_NE(text.find("#SBATCH --array=1-4%2"), std::string::npos) << text;
}

TEST_F(SlurmWorld, ADependencyThatCanNeverBeSatisfiedCancelsTheJob) {
  long parent = slurm_submit({"--", "false"});
  long child = slurm_submit({"-d", "afterok:" + std::to_string(parent), "--", "true"});
  EXPECT_EQ(wait({parent, child}), 1);
  EXPECT_EQ(job(parent)["state"], "FAILED");
  auto c = job(child);
  EXPECT_EQ(c["state"], "CANCELLED");
  EXPECT_EQ(c["reason"], "DependencyNeverSatisfied");
}

TEST_F(SlurmWorld, HostileValuesReachTheJobByteForByteAndRunNothing) {
  const std::vector<std::string> hostile = {"it's", "\"q\"", "$(touch pwned1)", "`touch pwned2`", "a;touch pwned3",
                                            "line1\nline2", "", "$HOME", "\\", "%j %% %x"};
  std::vector<std::string> args{"-J", "n'; $(touch pwned4) `x`", "--export", "ALL", "--", "sh", "-c",
                                "printf '%s\\0' \"$@\" > args.bin; printf '%s' \"$HOSTILE\" > env.bin", "sh"};
  args.insert(args.end(), hostile.begin(), hostile.end());
  std::string value = "v'\"$(touch pwned5)`touch pwned6`;\nend";
  ::setenv("HOSTILE", value.c_str(), 1);
  long id = slurm_submit(args);
  ::unsetenv("HOSTILE");
  ASSERT_EQ(wait({id}), 0) << job(id).dump();
  std::string expect;
  for (auto& h : hostile) expect += h + std::string(1, '\0');
  EXPECT_EQ(read("args.bin"), expect);
  EXPECT_EQ(read("env.bin"), value);
  EXPECT_EQ(job(id)["name"], "n'; $(touch pwned4) `x`");
  for (int i = 1; i <= 6; ++i) EXPECT_FALSE(fs::exists(dir_ + "/pwned" + std::to_string(i))) << i;
}

TEST_F(SlurmWorld, ARejectedSubmissionFailsWithSlurmsMessage) {
  long bad_partition = slurm_submit({"-p", "nosuch", "--", "true"});
  long too_many_gpus = slurm_submit({"-p", "gpu", "--gpus", "3", "--", "true"});
  EXPECT_EQ(wait({bad_partition, too_many_gpus}), 1);
  auto a = job(bad_partition), b = job(too_many_gpus);
  EXPECT_EQ(a["state"], "FAILED");
  EXPECT_NE(a["reason"].get<std::string>().find("Invalid partition name specified"), std::string::npos) << a["reason"];
  EXPECT_EQ(b["state"], "FAILED");
  EXPECT_NE(b["reason"].get<std::string>().find("rejected by slurm"), std::string::npos) << b["reason"];
}

// DEEP-EST's co-scheduling across modules: one job, a component on each partition.
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

TEST_F(SlurmWorld, CancelKillsARunningJobAndIsConfirmedByState) {
  long id = slurm_submit({"--", "sleep", "300"});
  ASSERT_TRUE(wait_state(id, "RUNNING"));
  auto native = job(id)["native_id"].get<std::string>();
  EXPECT_EQ(yard({"cancel", std::to_string(id)}).rc, 0);
  ASSERT_TRUE(wait_state(id, "CANCELLED"));
  // Slurm agrees.
  EXPECT_TRUE(wait_until([&] { return sh("sacct -X -n -P -o State -j " + native).rfind("CANCELLED", 0) == 0; }, 30));
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

TEST_F(SlurmWorld, CrashAfterSbatchFindsTheJobByUidNotResubmitted) {
  // An sbatch that submits, then hangs before answering: the daemon is killed meanwhile.
  fs::create_directories(dir_ + "/slowbin");
  write("slowbin/sbatch", "#!/bin/sh\n/usr/bin/sbatch \"$@\"\nrc=$?\necho $$ > " + dir_ +
                              "/sbatch-returned\nsleep 300\nexit $rc\n");
  fs::permissions(dir_ + "/slowbin/sbatch", fs::perms::owner_all);
  std::string path = std::string("PATH=") + dir_ + "/slowbin:" + std::getenv("PATH");
  auto started = yard({"server", "start"}, {path});
  ASSERT_EQ(started.rc, 0) << started.out << started.err << diag();
  long pid = daemon_pid();
  long id = slurm_submit({"--", "sleep", "3"});
  ASSERT_TRUE(wait_until([&] { return fs::exists(dir_ + "/sbatch-returned"); }, 60));
  ::kill(static_cast<pid_t>(pid), SIGKILL);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 30));
  long wrapper = std::atol(read("sbatch-returned").c_str());
  if (wrapper > 0) ::kill(static_cast<pid_t>(-wrapper), SIGKILL);  // its process group
  auto uid = job(id)["uid"].get<std::string>();
  EXPECT_TRUE(job(id)["native_id"].is_null());  // the id never reached the store
  ASSERT_EQ(yard({"server", "start"}).rc, 0);  // normal sbatch from now on
  ASSERT_EQ(wait({id}), 0) << job(id).dump();
  EXPECT_TRUE(job(id)["native_id"].is_string());
  EXPECT_TRUE(wait_until([&] { return native_jobs_named(uid) >= 1; }, 30));
  EXPECT_EQ(native_jobs_named(uid), 1);  // submitted once
}

// The same crash, but the job runs and ends while yard is down, and the controller
// forgets it (MinJobAge=60 in scripts/slurm/start.sh) before yard comes back: squeue no
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
  auto uid = job(id)["uid"].get<std::string>();
  ASSERT_TRUE(job(id)["native_id"].is_null());
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
  // What a component cannot hold is refused, naming the figures of that component.
  auto big = yard({"submit", "--backend", "slurm-steps", "--het-group", "1", "-n", "3", "--", "true"});
  EXPECT_EQ(big.rc, 2);
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
