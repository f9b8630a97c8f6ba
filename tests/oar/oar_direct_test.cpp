// Direct mode on a real OAR 2.5.9 (oar_world.h): `--backend oar-steps` runs yard jobs
// inside an OAR job the daemon is given (oar.yaml `allocation: ID`), each through oarsh
// on its node or as one mpirun over its hosts; cancelled jobs end on the node too; what
// does not fit in the allocation, or no allocation at all, is refused with the reason.
#include "oar_world.h"

namespace yard::test {
namespace {

class OarDirect : public OarWorld {
 protected:
  // An OAR job of 3 cores that only holds them: the allocation.
  std::string allocate() {
    std::string out = sh("cd /tmp && oarsub -n yard-direct-alloc -l /host=1/core=3,walltime=0:20:00 'sleep 1200' 2>&1");
    const auto at = out.find("OAR_JOB_ID=");
    EXPECT_NE(at, std::string::npos) << out;
    if (at == std::string::npos) return "";
    alloc_ = out.substr(at + 11, out.find('\n', at) - at - 11);
    EXPECT_TRUE(wait_until([&] { return sh("oarstat -s -j " + alloc_).find("Running") != std::string::npos; }, 90))
        << sh("oarstat -f -j " + alloc_);
    return alloc_;
  }
  void TearDown() override {
    if (!alloc_.empty()) sh("oardel " + alloc_ + " >/dev/null 2>&1");
    OarWorld::TearDown();
  }
  std::string alloc_;
};

TEST_F(OarDirect, JobsRunInsideTheAllocationThroughOarsh) {
  const std::string id = allocate();
  ASSERT_FALSE(id.empty());
  write("config/switchyard/oar.yaml", "allocation: " + id + "\njob_limit: 2\n");
  long two = submit({"--backend", "oar-steps", "-n", "2", "--", "sh", "-c",
                     "echo \"$OAR_JOB_ID $(wc -l < \"$OAR_NODEFILE\") $YARD_NTASKS\""});
  long bad = submit({"--backend", "oar-steps", "--", "sh", "-c", "exit 5"});
  long odd = submit({"--backend", "oar-steps", "-J", "a;b", "--export", "ALL,ODD=x'y\"z $HOME", "--", "printf",
                     "%s|", "it's", "$(touch pwned)", "two  words"});
  long arr = submit({"--backend", "oar-steps", "-a", "1-4", "-o", "arr-%a.out", "--", "sh", "-c", "echo $YARD_ARRAY_TASK_ID"});
  EXPECT_EQ(wait({two, bad, odd, arr}), 1) << diag();
  auto t = job(two);
  EXPECT_EQ(t["state"], "COMPLETED") << t.dump();
  EXPECT_EQ(t["backend"], "oar-steps");
  // Inside the allocation, its node file listing the job's own two cores.
  EXPECT_EQ(yard({"logs", std::to_string(two)}).out, id + " 2 2\n");
  EXPECT_EQ(job(bad)["state"], "FAILED");
  EXPECT_EQ(job(bad)["exit_code"], 5);
  EXPECT_EQ(job(odd)["state"], "COMPLETED") << diag();
  EXPECT_EQ(yard({"logs", std::to_string(odd)}).out, "it's|$(touch pwned)|two  words|");
  EXPECT_FALSE(fs::exists(dir_ + "/pwned"));
  for (int i = 1; i <= 4; ++i) EXPECT_EQ(read("arr-" + std::to_string(i) + ".out"), std::to_string(i) + "\n");
  // OAR ran no job of its own for them: the allocation is the only one of this test.
  // (An earlier test's job that was deleted may still be ending: waited for, 60 s at most.)
  EXPECT_TRUE(wait_until([&] { return sh("oarstat -u $(id -un) -J | grep -c '\"Job_Id\"'") == "1\n"; }, 60))
      << sh("oarstat -u $(id -un) 2>&1");
}

TEST_F(OarDirect, ACancelledOrTimedOutJobEndsOnTheNode) {
  const std::string id = allocate();
  ASSERT_FALSE(id.empty());
  write("config/switchyard/oar.yaml", "allocation: " + id + "\n");
  // The jobs' shells carry the marker; the pattern's [y] keeps pgrep's own shell out.
  const std::string marker = "ard-direct-" + std::to_string(::getpid());
  long cancelled = submit({"--backend", "oar-steps", "--", "sh", "-c", "sleep 301; : y" + marker + "-c"});
  long late = submit({"--backend", "oar-steps", "-t", "0:02", "--", "sh", "-c", "sleep 302; : y" + marker + "-t"});
  // The job's own shell on the node (its processes here, sh and oarsh, carry the marker
  // too, inside longer command lines): the job runs there before it is cancelled.
  ASSERT_TRUE(wait_until([&] { return sh("pgrep -f '^sh -c sleep 301; : [y]" + marker + "-c' >/dev/null && echo on") == "on\n"; }, 60))
      << diag();
  EXPECT_EQ(yard({"cancel", std::to_string(cancelled)}).rc, 0);
  EXPECT_EQ(wait({cancelled, late}), 1);
  EXPECT_EQ(job(cancelled)["state"], "CANCELLED");
  EXPECT_EQ(job(late)["state"], "TIMEOUT");
  // Their processes on the node (children of OAR's sshd, not of yard) are gone too.
  EXPECT_TRUE(wait_until([&] { return sh("pgrep -c -f '[y]" + marker + "'") == "0\n"; }, 30))
      << sh("pgrep -af '[y]" + marker + "'");
}

TEST_F(OarDirect, MpirunStartsTheTasksOnTheJobsHosts) {
  const std::string id = allocate();
  ASSERT_FALSE(id.empty());
  write("config/switchyard/oar.yaml", "allocation: " + id + "\n");
  long mpi = submit({"--backend", "oar-steps", "--launcher", "mpirun", "-n", "2", "--", "sh", "-c",
                     "echo rank $OMPI_COMM_WORLD_RANK of $OMPI_COMM_WORLD_SIZE"});
  ASSERT_EQ(wait({mpi}), 0) << diag() << read("yard-" + std::to_string(mpi) + ".out");
  auto out = yard({"logs", std::to_string(mpi)}).out;
  EXPECT_NE(out.find("rank 0 of 2\n"), std::string::npos) << out;
  EXPECT_NE(out.find("rank 1 of 2\n"), std::string::npos) << out;
}

TEST_F(OarDirect, WhatDoesNotFitOrNoAllocationIsRefusedWithTheReason) {
  auto none = yard({"submit", "--backend", "oar-steps", "--", "true"});
  EXPECT_NE(none.rc, 0);
  EXPECT_NE(none.err.find("backend oar-steps runs jobs inside an OAR job, and this daemon has none"),
            std::string::npos) << none.err;
  yard({"server", "stop"});
  const std::string id = allocate();
  ASSERT_FALSE(id.empty());
  write("config/switchyard/oar.yaml", "allocation: " + id + "\n");
  auto big = yard({"submit", "--test-only", "--backend", "oar-steps", "-n", "4", "--", "true"});
  EXPECT_EQ(big.rc, 1) << big.err;
  auto fits = yard({"submit", "--test-only", "--backend", "oar-steps", "-n", "3", "--", "true"});
  EXPECT_EQ(fits.rc, 0) << fits.err;
  // An allocation that has ended: the daemon says so to each job.
  yard({"server", "stop"});
  sh("oardel " + id + " >/dev/null 2>&1");
  ASSERT_TRUE(wait_until([&] { return sh("oarstat -s -j " + id).find("Running") == std::string::npos; }, 60));
  auto ended = yard({"submit", "--backend", "oar-steps", "--", "true"});
  EXPECT_NE(ended.rc, 0);
  EXPECT_NE(ended.err.find("allocation " + id + " is "), std::string::npos) << ended.err;
}

}  // namespace
}  // namespace yard::test
