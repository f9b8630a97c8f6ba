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
  ASSERT_TRUE(wait_until([&] { return job(queued[1])["native_id"].is_string(); }, 60)) << diag();
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
