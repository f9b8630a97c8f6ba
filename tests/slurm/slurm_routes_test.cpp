// Routes on the real Slurm 22.05: the jobs waiting in the local queue move to Slurm with
// `yard routes move local slurm`, keep their ids and run there; the running one stays.
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

}  // namespace
}  // namespace yard::test
