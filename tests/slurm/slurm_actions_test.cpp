// yard hold and release of jobs in the real Slurm's queue: scontrol's own commands, given
// yard's ids; the job's state and hold as Slurm shows them. (A requeue is yard's own on
// every backend: the life-cycle suite.)
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
  r = yard({"requeue", std::to_string(gate)});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("cannot be requeued: only a running job can"), std::string::npos) << r.err;
  r = yard({"release", std::to_string(held)});
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(wait({held}), 0) << diag();
  EXPECT_TRUE(fs::exists(dir_ + "/held-ran"));
  EXPECT_EQ(job(held)["held"], false);
}

}  // namespace
}  // namespace yard::test

namespace yard::test {
namespace {

// An array Slurm would refuse (an index at or above its MaxArraySize, read by the daemon
// from `scontrol show config`) is refused at submission, exit 2, nothing stored; the limit
// is what the daemon tells clients that split their arrays.
TEST_F(SlurmWorld, AnArrayAboveSlurmsMaxArraySizeIsRefusedAtSubmission) {
  const long limit = std::stol("0" + sh("scontrol show config | awk '$1 == \"MaxArraySize\" { print $3 }'"));
  ASSERT_GT(limit, 1) << "no MaxArraySize in scontrol show config";
  auto known = [&] {
    auto routes = nlohmann::json::parse(yard({"routes", "--json"}).out);
    for (auto& b : routes["backends"])
      if (b["backend"] == "slurm") return b["max_array_size"].get<long>();
    return 0L;
  };
  // Read once the backend is used.
  long first = slurm_submit({"-o", "/dev/null", "--", "true"});
  ASSERT_TRUE(wait_until([&] { return known() == limit; }, 30)) << known() << " against " << limit;
  EXPECT_EQ(wait({first}), 0) << diag();
  const std::string last = std::to_string(limit);
  Output o = yard({"submit", "--backend", "slurm", "-a", "0-" + last, "--", "true"});
  EXPECT_EQ(o.rc, 2) << o.out;
  EXPECT_NE(o.err.find("--array: index " + last + " is above the highest backend slurm takes, " +
                       std::to_string(limit - 1) + " (slurm's configuration: " + last + ")"),
            std::string::npos)
      << o.err;
  EXPECT_EQ(status().size(), 1u);  // nothing stored but the first
  long ok = slurm_submit({"-a", std::to_string(limit - 2) + "-" + std::to_string(limit - 1), "-o", "/dev/null", "--", "true"});
  EXPECT_EQ(wait({ok}), 0) << diag();
}

}  // namespace
}  // namespace yard::test
