// The qmaster going away in the middle of a workload (run as root: only root stops and
// starts the cluster's daemons): no job lost, none submitted twice, all end with their
// true states once it is back.
#include "sge_world.h"

namespace yard::test {
namespace {

TEST_F(SgeWorld, QmasterDownWith30JobsNoneLostNoneTwice) {
  const char* state = std::getenv("YARD_SGE_STATE");
  ASSERT_NE(state, nullptr) << "run through ctest: the fixture names the cluster's state directory";
  std::vector<long> ids;
  // 30 jobs on 4 slots that hold them until `go` exists: some run while others queue.
  for (int i = 0; i < 30; ++i)
    ids.push_back(sge_submit({"-o", "/dev/null", "--", "sh", "-c", "while [ ! -e go ]; do sleep 0.2; done"}));
  auto count = [&](const std::string& wanted) {
    int n = 0;
    for (auto& j : status()) n += j["state"] == wanted;
    return n;
  };
  ASSERT_TRUE(wait_until([&] { return count("RUNNING") > 0 && count("PENDING") > 0; }, 120)) << diag();
  const std::string pid_text = sh(std::string("cat ") + state + "/qmaster.pid");
  ASSERT_FALSE(pid_text.empty());
  const long qmaster = std::stol(pid_text);
  ASSERT_EQ(::kill(static_cast<pid_t>(qmaster), SIGTERM), 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(qmaster); }, 60));
  // The outage itself lasts 10 s (this is the scenario, not a wait for a condition);
  // jobs submitted meanwhile meet the missing qmaster.
  for (int i = 0; i < 5; ++i) ids.push_back(sge_submit({"-o", "/dev/null", "--", "true"}));
  std::this_thread::sleep_for(std::chrono::seconds(10));
  EXPECT_EQ(count("COMPLETED") + count("FAILED") + count("LOST"), 0) << diag();  // nothing judged blind
  int rc = 0;
  sh(std::string("bash " YARD_SOURCE_DIR "/scripts/sge/start.sh ") + state + " >/dev/null 2>&1", &rc);
  ASSERT_EQ(rc, 0) << "the qmaster did not come back";
  write("go", "");
  ASSERT_TRUE(all_ended(300)) << diag();
  auto all = status();
  ASSERT_EQ(all.size(), 35u);
  std::set<std::string> natives;
  for (auto& j : all) {
    EXPECT_EQ(j["state"], "COMPLETED") << j.dump();
    natives.insert(j["native_id"].is_string() ? j["native_id"].get<std::string>() : "");
  }
  EXPECT_EQ(natives.size(), 35u);
  for (long id : {ids[0], ids[15], ids[34]}) EXPECT_EQ(native_jobs_named(job(id)["uid"]), 1) << id;
  auto server = nlohmann::json::parse(yard({"server", "status", "--json"}).out);
  EXPECT_GT(server["sge_calls"]["failed"].get<int>(), 0) << server.dump();  // the outage was seen, and survived
}

}  // namespace
}  // namespace yard::test
