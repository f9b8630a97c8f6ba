// yard hold, release and requeue of jobs in the real Slurm's queue: scontrol's own
// commands, given yard's ids; the job's state and hold as Slurm shows them.
#include "slurm_world.h"

namespace yard::test {
namespace {

// Slurm's reason for a pending job ("JobHeldUser", "Dependency", ...), "" once it left the queue.
std::string slurm_reason(const std::string& native) {
  std::string r = sh("squeue -h -j " + native + " -o %r 2>/dev/null");
  while (!r.empty() && (r.back() == '\n' || r.back() == ' ')) r.pop_back();
  return r;
}

TEST_F(SlurmWorld, AHeldJobStaysInSlurmsQueueUntilReleased) {
  long gate = slurm_submit({"--", "sh", "-c", "while [ ! -e open ]; do sleep 0.1; done"});
  long held = slurm_submit({"-d", "afterok:" + std::to_string(gate), "--", "touch", "held-ran"});
  ASSERT_TRUE(wait_until([&] { return !job(held)["native_id"].is_null(); }, 60)) << diag();
  auto r = yard({"hold", std::to_string(held)});
  ASSERT_EQ(r.rc, 0) << r.err;
  const std::string native = job(held)["native_id"].get<std::string>();
  ASSERT_TRUE(wait_until([&] { return slurm_reason(native) == "JobHeldUser"; }, 30)) << diag();
  EXPECT_EQ(job(held)["held"], true);
  write("open", "");
  ASSERT_EQ(wait({gate}), 0) << diag();
  // The gate ended: the held job does not start, Slurm says why.
  EXPECT_EQ(slurm_reason(native), "JobHeldUser");
  EXPECT_EQ(job(held)["state"], "PENDING");
  EXPECT_FALSE(fs::exists(dir_ + "/held-ran"));
  // A running job cannot be held (the gate has ended: an ended one either).
  r = yard({"hold", std::to_string(gate)});
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("cannot be held"), std::string::npos) << r.err;
  r = yard({"release", std::to_string(held)});
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(wait({held}), 0) << diag();
  EXPECT_TRUE(fs::exists(dir_ + "/held-ran"));
  EXPECT_EQ(job(held)["held"], false);
}

TEST_F(SlurmWorld, ARequeuedJobRunsAgainUnderTheSameIds) {
  long id = slurm_submit({"--", "sh", "-c",
                          "if [ -e first ]; then echo second; else touch first; while :; do sleep 0.1; done; fi"});
  ASSERT_TRUE(wait_until([&] { return job(id)["state"] == "RUNNING" && fs::exists(dir_ + "/first"); }, 60)) << diag();
  const std::string native = job(id)["native_id"].get<std::string>();
  auto r = yard({"requeue", std::to_string(id)});
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_TRUE(wait_state(id, "PENDING")) << diag();
  // Slurm keeps a requeued job from starting for two minutes (its BeginTime); the test, as
  // the cluster's admin, lets it start at once.
  sh("scontrol update JobId=" + native + " StartTime=now");
  ASSERT_EQ(wait({id}), 0) << diag();
  EXPECT_EQ(job(id)["native_id"], native);  // Slurm's own requeue: the same job there too
  EXPECT_NE(yard({"logs", std::to_string(id)}).out.find("second"), std::string::npos);
  // It was pending again in between, as its events say.
  auto events = yard({"watch", "--no-follow", "--state", "RUNNING", std::to_string(id)}).out;
  EXPECT_NE(events.find("RUNNING"), events.rfind("RUNNING")) << events;
}

}  // namespace
}  // namespace yard::test
