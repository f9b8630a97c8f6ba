#include "backends/slurm/slurm_pilot.h"

#include <gtest/gtest.h>

#include "backends/slurm/fixtures_for_tests.h"
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

}  // namespace
}  // namespace yard
