// Direct mode on OAR, without OAR: what runs a job in the allocation (oarsh to the host
// of its first core, or one mpirun over its hosts), and the two shell scripts run for
// real, with a stand-in `oarsh` that runs the node's command here as ssh would (joined
// by blanks, read by a shell): arguments and environment byte for byte, the node file,
// the exit status, and a job killed here dies there. The real OAR cluster runs the same
// in tests/oar/oar_direct_test.cpp.
#include "backends/oar/oar_steps.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "backends/command_runner.h"
#include "core/file_text.h"

namespace yard {
namespace {

OarAllocation two_hosts() {
  OarAllocation a;
  a.job_id = "42";
  a.slots = {"n1", "n1", "n2", "n2"};
  return a;
}

LaunchPlan plan_with(std::vector<int> pus) {
  LaunchPlan p;
  p.argv = {"prog", "a b"};
  p.env = {"PATH=/usr/bin:/bin", "CUDA_VISIBLE_DEVICES=0", "OAR_JOB_ID=7"};
  p.workdir = "/tmp";
  p.pus = std::move(pus);
  p.mem_limit_bytes = 1 << 20;
  return p;
}

TEST(OarSteps, AJobRunsOnceThroughOarshOnItsFirstCoresHost) {
  JobSpec spec;
  spec.res.ntasks = 2;
  auto p = plan_with({2, 3});
  plan_oar_step(p, spec, two_hosts(), false);
  ASSERT_EQ(p.argv.size(), 6u);
  EXPECT_EQ(p.argv[0], "sh");
  EXPECT_EQ(p.argv[4], "n2");
  EXPECT_EQ(p.argv[5].rfind("exec sh -c ", 0), 0u) << p.argv[5];
  // oarsh finds the allocation by OAR_JOB_ID: the allocation's, not the submitter's.
  EXPECT_NE(std::find(p.env.begin(), p.env.end(), "OAR_JOB_ID=42"), p.env.end());
  EXPECT_EQ(std::count_if(p.env.begin(), p.env.end(), [](auto& e) { return e.rfind("OAR_JOB_ID=", 0) == 0; }), 1);
  // OAR confines the job on its node: nothing pinned, limited or handed out here.
  EXPECT_TRUE(p.pus.empty());
  EXPECT_EQ(p.mem_limit_bytes, 0u);
  EXPECT_EQ(std::count(p.env.begin(), p.env.end(), "CUDA_VISIBLE_DEVICES=0"), 0);
}

TEST(OarSteps, MpirunGetsEachHostWithItsTasks) {
  JobSpec spec;
  spec.launcher = "mpirun";
  spec.argv = {"./a"};
  spec.res.ntasks = 3;
  auto p = plan_with({1, 2, 3});
  plan_oar_step(p, spec, two_hosts(), true);
  EXPECT_EQ(p.argv, (std::vector<std::string>{"mpirun", "--host", "n1:1,n2:2", "-np", "3", "./a"}));
  EXPECT_NE(std::find(p.env.begin(), p.env.end(), "OMPI_MCA_plm_rsh_agent=oarsh"), p.env.end());
  EXPECT_NE(std::find(p.env.begin(), p.env.end(), "OMPI_ALLOW_RUN_AS_ROOT=1"), p.env.end());
  // Two CPUs a task: a task's host is that of its first core.
  spec.res.ntasks = 2;
  spec.res.cpus_per_task = 2;
  auto q = plan_with({0, 1, 2, 3});
  plan_oar_step(q, spec, two_hosts(), false);
  EXPECT_EQ(q.argv[2], "n1:1,n2:1");
}

// The scripts run for real, `oarsh` standing in for OAR's.
class OarStepScripts : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("yard-oar-steps-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_ / "bin");
    std::ofstream(dir_ / "bin/oarsh") << "#!/bin/sh\n"
                                         "echo \"$1 $OAR_JOB_ID\" > \"$(dirname \"$0\")/../oarsh.called\"\n"
                                         "shift\nexec setsid bash -c \"$*\"\n";  // a session of its own, as sshd's
    std::filesystem::permissions(dir_ / "bin/oarsh", std::filesystem::perms::owner_all);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  LaunchPlan planned(std::vector<std::string> argv) {
    JobSpec spec;
    auto p = plan_with({0, 1});
    p.argv = std::move(argv);
    p.workdir = dir_.string();
    p.env = {"PATH=" + (dir_ / "bin").string() + ":/usr/bin:/bin", "ODD=x'y\"z $HOME\ttab", "OAR_NODEFILE=/wrong"};
    plan_oar_step(p, spec, two_hosts(), false);
    return p;
  }
  std::vector<std::string> command(const LaunchPlan& p) {
    std::vector<std::string> a{"env", "-i"};
    a.insert(a.end(), p.env.begin(), p.env.end());
    a.insert(a.end(), p.argv.begin(), p.argv.end());
    return a;
  }
  std::filesystem::path dir_;
};

TEST_F(OarStepScripts, ArgumentsEnvironmentNodeFileAndExitStatusArrive) {
  auto p = planned({"sh", "-c", "printf '%s|' \"$0\" \"$1\" \"$ODD\" \"$OAR_JOB_ID\"; cat \"$OAR_NODEFILE\"; pwd; exit 7",
                    "it's $0", "two  words"});
  auto r = run_command(command(p), 30);
  EXPECT_EQ(r.exit_code, 7) << r.err;
  EXPECT_EQ(r.out, "it's $0|two  words|x'y\"z $HOME\ttab|42|n1\nn1\n" + dir_.string() + "\n");
  auto called = read_file((dir_ / "oarsh.called").string());
  EXPECT_EQ(called ? *called : "", "n1 42\n");
}

// Killing the job here (the job host kills its whole process tree) closes oarsh's input;
// the watchdog on the node then ends the job's process group.
TEST_F(OarStepScripts, AJobKilledHereEndsOnTheNode) {
  const std::string marker = (dir_ / "alive").string();
  auto p = planned({"sh", "-c", "while :; do touch '" + marker + "'; sleep 0.1; done"});
  auto a = command(p);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::setpgid(0, 0);
    std::vector<char*> args;
    for (auto& s : a) args.push_back(s.data());
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  auto modified = [&] {
    std::error_code ec;
    auto t = std::filesystem::last_write_time(marker, ec);
    return ec ? std::filesystem::file_time_type{} : t;
  };
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (modified() == std::filesystem::file_time_type{} && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_NE(modified(), std::filesystem::file_time_type{}) << "the job never started";
  ::kill(-pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  // The node's loop stops: its marker is not touched again for a whole second.
  bool stopped = false;
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!stopped && std::chrono::steady_clock::now() < deadline) {
    auto before = modified();
    std::this_thread::sleep_for(std::chrono::seconds(1));
    stopped = modified() == before;
  }
  EXPECT_TRUE(stopped) << "the job still runs on the node";
}

}  // namespace
}  // namespace yard
