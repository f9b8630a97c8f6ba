// Direct mode inside an LSF or PBS job, without one: the host file read, what runs a job
// in the allocation (here when its first slot is this host, else the scheduler's
// launcher; one mpirun over its hosts), and the local form run for real: the job's own
// node file in the scheduler's variable, its arguments byte for byte, its exit status.
// The stand-in LSF scheduler runs a daemon inside a real job in tests/lsf.
#include "backends/local/hostfile_steps.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "backends/command_runner.h"

namespace yard {
namespace {

const HostfileScheduler kLsf{"lsf-steps", "an LSF job", "LSB_JOBID", "LSB_DJOB_HOSTFILE", {"blaunch"}, "blaunch"};

HostfileAllocation two_hosts() { return *parse_hostfile("here\nhere\nn2\nn2\n", "42", "hosts"); }

LaunchPlan plan_with(std::vector<int> pus) {
  LaunchPlan p;
  p.argv = {"sh", "-c", "echo \"$1|$LSB_DJOB_HOSTFILE\" && cat \"$YARD_NODEFILE\" && exit 7", "sh", "a b"};
  p.env = {"PATH=/usr/bin:/bin"};
  p.workdir = "/tmp";
  p.pus = std::move(pus);
  p.mem_limit_bytes = 1 << 20;
  return p;
}

TEST(HostfileSteps, TheHostFileIsReadLineByLineAndABadLineNamed) {
  auto a = parse_hostfile("n1\n\nn1\nn2\n", "7", "f");
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->slots, (std::vector<std::string>{"n1", "n1", "n2"}));
  EXPECT_EQ(a->nodes(), 2);
  auto bad = parse_hostfile("n1\nn1; rm -rf /\n", "7", "/tmp/hosts");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("/tmp/hosts:2:"), std::string::npos) << bad.error();
  EXPECT_FALSE(parse_hostfile("\n\n", "7", "f"));
  auto outside = find_hostfile_allocation(kLsf, "123");
  ASSERT_FALSE(outside);
  EXPECT_NE(outside.error().find("inside an LSF job only"), std::string::npos) << outside.error();
}

TEST(HostfileSteps, AJobOnThisHostRunsHereWithItsOwnNodeFile) {
  JobSpec spec;
  spec.res.ntasks = 2;
  auto p = plan_with({0, 1});
  plan_hostfile_step(p, spec, two_hosts(), kLsf, "here", false);
  EXPECT_EQ(p.argv.at(0), "sh");
  EXPECT_TRUE(p.pus.empty());  // the scheduler confines the job
  EXPECT_EQ(p.mem_limit_bytes, 0u);
  std::vector<std::string> argv{"env", "-i"};  // the plan's environment alone, as the job host gives it
  argv.insert(argv.end(), p.env.begin(), p.env.end());
  argv.insert(argv.end(), p.argv.begin(), p.argv.end());
  auto r = run_command(argv, 10);
  EXPECT_EQ(r.exit_code, 7) << r.err;
  const auto at = r.out.find('|');
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_EQ(r.out.substr(0, at), "a b");                          // byte for byte
  EXPECT_EQ(r.out.substr(r.out.find('\n') + 1), "here\nhere\n");  // its two slots
}

TEST(HostfileSteps, AJobOnAnotherHostGoesThroughTheSchedulersLauncher) {
  JobSpec spec;
  auto p = plan_with({2});
  plan_hostfile_step(p, spec, two_hosts(), kLsf, "here", false);
  ASSERT_GE(p.argv.size(), 4u);
  EXPECT_EQ(p.argv[0], "blaunch");
  EXPECT_EQ(p.argv[1], "n2");
  EXPECT_EQ(p.argv[2], "env");
  EXPECT_NE(std::find(p.argv.begin(), p.argv.end(), "PATH=/usr/bin:/bin"), p.argv.end());  // its environment along
  EXPECT_NE(std::find(p.argv.begin(), p.argv.end(), "YARD_STEP_SLOTS=n2"), p.argv.end());
  EXPECT_EQ(p.argv.back(), "a b");
}

TEST(HostfileSteps, MpirunGetsEachHostWithItsTasksAndTheLauncherAsAgent) {
  JobSpec spec;
  spec.launcher = "mpirun";
  spec.argv = {"./mpi_prog"};
  spec.res.ntasks = 3;
  auto p = plan_with({1, 2, 3});
  plan_hostfile_step(p, spec, two_hosts(), kLsf, "here", true);
  ASSERT_GE(p.argv.size(), 3u);
  EXPECT_EQ(p.argv[0], "mpirun");
  EXPECT_EQ(p.argv[1], "--host");
  EXPECT_EQ(p.argv[2], "here:1,n2:2");
  EXPECT_NE(std::find(p.env.begin(), p.env.end(), "OMPI_MCA_plm_rsh_agent=blaunch"), p.env.end());
  EXPECT_NE(std::find(p.env.begin(), p.env.end(), "OMPI_ALLOW_RUN_AS_ROOT=1"), p.env.end());
}

}  // namespace
}  // namespace yard
