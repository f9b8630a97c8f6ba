#include "backends/slurm/slurm_pilot.h"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "backends/slurm/fixtures_for_tests.h"
#include "backends/slurm/pilot.h"
#include "core/clock.h"
#include "backends/slurm/slurm_parse.h"

namespace yard {
namespace {

using V = std::vector<std::string>;

TEST(SlurmPilot, TheNameCarriesThePrefixTheUserAndTheStateDirectory) {
  const auto a = slurm_pilot_name("alice", "/home/alice/.local/state/switchyard");
  EXPECT_EQ(a.rfind("yard-pilot-alice-", 0), 0u) << a;
  EXPECT_EQ(a.size(), std::string("yard-pilot-alice-").size() + 8);
  EXPECT_EQ(a, slurm_pilot_name("alice", "/home/alice/.local/state/switchyard"));  // stable
  EXPECT_NE(a, slurm_pilot_name("alice", "/scratch/alice/state"));                // one per state dir
  EXPECT_EQ(slurm_pilot_name("o'neil x", "/s").rfind("yard-pilot-o_neil_x-", 0), 0u);
}

TEST(SlurmPilot, SbatchAsksForWhatTheConfigSays) {
  PilotSpec s;
  s.partition = "cpu";
  s.account = "proj";
  s.nodes = 2;
  s.cpus = 8;
  s.mem_bytes = 2ull << 30;
  s.gpus = 1;
  s.walltime_s = 5400;
  EXPECT_EQ(pilot_sbatch_argv(s, "yard-pilot-u-0"),
            (V{"sbatch", "--parsable", "--job-name=yard-pilot-u-0", "--nodes=2", "--ntasks=8", "--output=/dev/null",
               "--partition=cpu", "--account=proj", "--time=01:30:00", "--mem=2048M", "--gpus=1",
               "--wrap=exec sleep infinity"}));
  EXPECT_EQ(pilot_sbatch_argv(PilotSpec{}, "p"),
            (V{"sbatch", "--parsable", "--job-name=p", "--nodes=1", "--ntasks=1", "--output=/dev/null",
               "--wrap=exec sleep infinity"}));
  EXPECT_EQ(pilot_find_argv("p"), (V{"squeue", "--me", "-h", "-n", "p", "-o", "%i|%T|%r|%j"}));
}

TEST(SlurmPilot, TheLivePilotIsTheNewestPendingOrRunningJobOfItsName) {
  auto l = parse_squeue(
      "9|RUNNING|None|yard-pilot-u-1\n"
      "12|COMPLETING|None|yard-pilot-u-0\n"
      "10|PENDING|Resources|yard-pilot-u-0\n"
      "8|RUNNING|None|yard-pilot-u-0\n");
  ASSERT_TRUE(l) << l.error();
  EXPECT_EQ(live_pilot(*l, "yard-pilot-u-0"), "10");
  EXPECT_EQ(live_pilot(*l, "yard-pilot-u-1"), "9");
  EXPECT_EQ(live_pilot(*l, "yard-pilot-u-2"), std::nullopt);
  // A real listing without pilots in it (capture.sh's jobs) has none.
  auto real = parse_squeue(slurm_fixture("squeue_all_states.out"));
  ASSERT_TRUE(real) << real.error();
  EXPECT_EQ(live_pilot(*real, "yard-pilot-u-0"), std::nullopt);
}

// On a scripted Slurm (squeue, sbatch and scancel on PATH, logging what they are asked):
// a daemon stopped while its pilot's sbatch runs waits for sbatch's answer, then cancels
// the pilot by its name, so that none is left behind.
TEST(SlurmPilot, StoppedWhileItsSbatchRunsItWaitsThenCancelsThePilot) {
  char tmpl[] = "/tmp/yard-pilot-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl, log = dir + "/calls";
  auto script = [&](const std::string& name, const std::string& body) {
    const std::string path = dir + "/" + name;
    std::ofstream(path) << "#!/bin/sh\n" << body;
    ::chmod(path.c_str(), 0755);
  };
  script("squeue", "exit 0\n");  // no pilot yet
  script("sbatch", "echo sbatch started >> " + log + "\nwhile [ ! -e " + dir + "/go ]; do sleep 0.01; done\necho 4242\n");
  script("scancel", "echo scancel \"$@\" >> " + log + "\n");
  const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin";
  ::setenv("PATH", (dir + ":" + old_path).c_str(), 1);
  auto read_log = [&] {
    std::ifstream f(log);
    return std::string((std::istreambuf_iterator<char>(f)), {});
  };
  {
    Pilot p(PilotSpec{}, "yard-pilot-test-1", 0.05, 10);
    const double deadline = monotonic_now() + 10;
    while (read_log().find("sbatch started") == std::string::npos && monotonic_now() < deadline) {
      p.step(monotonic_now());
      pollfd fd{p.event_fd(), POLLIN, 0};
      (void)::poll(&fd, 1, 20);
    }
    ASSERT_NE(read_log().find("sbatch started"), std::string::npos) << read_log();
    std::ofstream(dir + "/go") << "";  // sbatch answers only now: cancel() must wait for it
    p.cancel(10);
    EXPECT_EQ(p.job_id(), "4242");
  }
  ::setenv("PATH", old_path.c_str(), 1);
  EXPECT_EQ(read_log(), "sbatch started\nscancel --user=" + std::to_string(::getuid()) + " --name=yard-pilot-test-1\n");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace yard
