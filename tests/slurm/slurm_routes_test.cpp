// Routes on the real Slurm 22.05: the jobs waiting in the local queue move to Slurm with
// `yard routes move local slurm`, keep their ids and run there, the running one stays; and
// jobs pending in Slurm's queue leave it (scancel --state=PENDING) for the local machine,
// each run once.
#include "slurm_world.h"

namespace yard::test {
namespace {

TEST_F(SlurmWorld, PendingLocalJobsMoveToSlurmAndRunThere) {
  configure("cpus: 1\n");
  const long hog = submit({"--", "sh", "-c", "while [ ! -e go ]; do sleep 0.05; done"});
  ASSERT_TRUE(wait_until([&] { return job(hog)["state"] == "RUNNING"; }, 20));
  const long a = submit({"-o", "a.out", "--", "sh", "-c", "echo a on ${SLURM_JOB_ID:-nothing}"});
  const long b = submit({"-o", "b.out", "--dependency", "afterok:" + std::to_string(a), "--", "sh", "-c", "echo b"});
  Output o = yard({"routes", "move", "local", "slurm", "--json"});
  ASSERT_EQ(o.rc, 0) << o.err;
  auto moves = nlohmann::json::parse(o.out);
  EXPECT_EQ(moves["moved"], nlohmann::json({a, b})) << o.out;
  ASSERT_EQ(moves["stay"].size(), 1u) << o.out;
  EXPECT_EQ(moves["stay"][0]["id"], hog);
  EXPECT_EQ(moves["stay"][0]["why"], "running");
  ASSERT_EQ(wait({a, b}), 0) << diag();
  for (long id : {a, b}) {
    auto j = job(id);
    EXPECT_EQ(j["backend"], "slurm") << j.dump();
    EXPECT_TRUE(j["native_id"].is_string()) << j.dump();
  }
  EXPECT_EQ(read("a.out"), "a on " + job(a)["native_id"].get<std::string>() + "\n");
  EXPECT_EQ(read("b.out"), "b\n");
  write("go", "");
  EXPECT_EQ(wait({hog}), 0);
  EXPECT_EQ(job(hog)["backend"], "local");
}

TEST_F(SlurmWorld, JobsPendingInSlurmsQueueLeaveItForTheLocalMachineEachRunOnce) {
  // The whole partition taken: the jobs after it pend (Resources).
  const long hog = submit({"--backend", "slurm", "-N", "2", "-n", "32", "-o", "/dev/null", "--", "sh", "-c",
                           "while [ ! -e go ]; do sleep 0.2; done"});
  ASSERT_TRUE(wait_until([&] { return job(hog)["state"] == "RUNNING"; }, 60)) << diag();
  std::vector<long> queued;
  for (int i = 0; i < 2; ++i)
    queued.push_back(submit({"--backend", "slurm", "-o", "q" + std::to_string(i) + ".out", "--", "sh", "-c",
                             "echo ran on ${SLURM_JOB_ID:-the local machine}"}));
  // Both in Slurm's queue (a submission that timed out is looked up first, then known).
  ASSERT_TRUE(wait_until([&] { return job(queued[0])["native_id"].is_string() && job(queued[1])["native_id"].is_string(); },
                         60))
      << diag();
  Output dry = yard({"routes", "move", "slurm", "local", "--dry-run", "--json"});
  ASSERT_EQ(dry.rc, 0) << dry.err;
  EXPECT_EQ(nlohmann::json::parse(dry.out)["leaving"], nlohmann::json(queued)) << dry.out;
  Output o = yard({"routes", "move", "slurm", "local", "--json"});
  ASSERT_EQ(o.rc, 0) << o.err;
  auto moves = nlohmann::json::parse(o.out);
  EXPECT_EQ(moves["leaving"], nlohmann::json(queued)) << o.out;
  ASSERT_EQ(moves["stay"].size(), 1u) << o.out;
  EXPECT_EQ(moves["stay"][0]["id"], hog);
  ASSERT_EQ(wait(queued), 0) << diag();
  for (std::size_t i = 0; i < queued.size(); ++i) {
    auto j = job(queued[i]);
    EXPECT_EQ(j["backend"], "local") << j.dump();
    EXPECT_EQ(read("q" + std::to_string(i) + ".out"), "ran on the local machine\n");
    // In Slurm once, cancelled there before it ran (its record reaches the accounting a
    // moment after: waited for).
    const std::string uid = j["uid"];
    std::string record;  // its Slurm job: cancelled, on no node
    EXPECT_TRUE(wait_until([&] {
      std::istringstream in(sh("sacct -X -n -P -a -S now-3600 -o JobName,State,NodeList 2>/dev/null"));
      for (std::string line; std::getline(in, line);)
        if (line.find(uid) != std::string::npos) record = line.substr(line.find('|') + 1);
      return record.rfind("CANCELLED", 0) == 0;
    }, 30)) << record;
    EXPECT_NE(record.find("None assigned"), std::string::npos) << record;
    EXPECT_EQ(native_jobs_named(uid), 1) << j.dump();
  }
  EXPECT_EQ(job(hog)["state"], "RUNNING");  // the running one stays, untouched
  write("go", "");
  EXPECT_EQ(wait({hog}), 0);
}

}  // namespace
}  // namespace yard::test

namespace yard::test {
namespace {

// routes.yaml's classes against Slurm's own partitions (`short`: at most 1:00:00, one
// node, 4096 MB per node): within them the routes are taken and `yard routes` shows the
// partition's limits as Slurm lists them; a class above its partition's MaxTime, or a
// partition Slurm does not have, is refused naming the line, and the routes before stay.
TEST_F(SlurmWorld, AClassAboveItsPartitionsLimitsIsRefusedNamingTheLineAndTheRoutesBeforeStay) {
  const std::string file = dir_ + "/config/switchyard/routes.yaml";
  write("config/switchyard/routes.yaml",
        "classes:\n  small: {time: 30:00, cpus: 2}\ntargets:\n  slurm: {queues: {small: short}}\n");
  auto listing = [&] {
    auto r = nlohmann::json::parse(yard({"routes", "--json"}).out);
    for (auto& b : r["backends"])
      if (b["backend"] == "slurm" && b.contains("queue_listing")) return b["queue_listing"];
    return nlohmann::json();
  };
  ASSERT_TRUE(wait_until(
      [&] {
        auto l = listing();
        return l.is_object() && l.value("read", false);
      },
      30))
      << diag() << yard({"routes", "--json"}).out;
  const auto shorter = listing()["queues"]["short"];
  EXPECT_EQ(shorter["time_s"], 3600) << shorter.dump();
  // Its nodes' CPUs: a job has one node of them, but which is not said (nodes may differ),
  // so only what no job can pass is stated.
  EXPECT_EQ(shorter["cpus"], 32) << shorter.dump();
  EXPECT_EQ(shorter["mem_bytes"], 4096ull << 20) << shorter.dump();
  Output table = yard({"routes"});
  EXPECT_NE(table.out.find("slurm:short          01:00:00     32       4G"), std::string::npos) << table.out;
  EXPECT_EQ(nlohmann::json::parse(yard({"routes", "--json"}).out)["problem"], "");

  // One line too many: class long goes to `short` too, and asks for two hours.
  write("config/switchyard/routes.yaml",
        "classes:\n  small: {time: 30:00, cpus: 2}\n  long: {time: 2:00:00}\n"
        "targets:\n  slurm: {queues: {small: short, long: short}}\n");
  const std::string why = file + ":5: targets: slurm: queues: long: class long (" + file +
                          ":3): its time 02:00:00 is above queue short's limit of 01:00:00 on slurm";
  auto r = nlohmann::json::parse(yard({"routes", "--json"}).out);
  EXPECT_EQ(r["problem"], why);
  ASSERT_EQ(r["classes"].size(), 1u) << r.dump();  // the routes before stay in force
  EXPECT_EQ(r["classes"][0]["name"], "small");
  Output check = yard({"routes", "check", file});
  EXPECT_EQ(check.rc, 2);
  EXPECT_NE(check.err.find(why), std::string::npos) << check.err;

  // A partition Slurm does not have, in a file checked beside the daemon's.
  write("other.yaml", "classes:\n  small: {time: 30:00}\ntargets:\n  slurm: {queues: {small: nosuch}}\n");
  check = yard({"routes", "check", dir_ + "/other.yaml"});
  EXPECT_EQ(check.rc, 2);
  EXPECT_NE(check.err.find(dir_ + "/other.yaml:4: targets: slurm: queues: small: 'nosuch' is not a queue of "
                                  "slurm's scheduler (its queues: cpu, gpu, short)"),
            std::string::npos)
      << check.err;
}

}  // namespace
}  // namespace yard::test
