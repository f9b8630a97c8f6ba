// The qmaster going away in the middle of a workload (run as root: only root stops and
// starts the cluster's daemons): no job lost, none submitted twice, all end with their
// true states once it is back.
#include <map>

#include "sge_world.h"

namespace yard::test {
namespace {

// The cell back after its qmaster was stopped: "" once it answers, else what start.sh said.
// start.sh is idempotent: a start that a loaded machine made miss its deadline is asked
// once more.
std::string restart_cell(const std::string& state) {
  int rc = 0;
  std::string said;
  for (int attempt = 0; attempt < 2 && (attempt == 0 || rc != 0); ++attempt)
    said += sh(std::string("bash " YARD_SOURCE_DIR "/scripts/sge/start.sh ") + state + " 2>&1", &rc);
  return rc == 0 ? "" : "the qmaster did not come back: " + said;
}

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
  ASSERT_EQ(restart_cell(state), "");
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

// Failover (routes.yaml): with the qmaster gone, Grid Engine is marked down after its
// calls fail, new jobs wished for it go to its fallback (the local machine) and run
// there, the jobs already in Grid Engine stay there, none is submitted twice, and once
// the qmaster answers again new jobs go back to Grid Engine.
TEST_F(SgeWorld, QmasterDownSendsNewJobsToTheFallbackAndBackOnceItAnswers) {
  const char* state = std::getenv("YARD_SGE_STATE");
  ASSERT_NE(state, nullptr) << "run through ctest: the fixture names the cluster's state directory";
  write("config/switchyard/sge.yaml",
        "poll_interval: 0.5\ncalls_per_second: 4\nburst: 4\nlost_after: 30\naccounting_lag: 3\n"
        "retry_max: 2\ndown_after_failures: 2\n");
  write("config/switchyard/routes.yaml", "targets:\n  sge: {fallback: local}\n");
  auto sge_health = [&] {
    auto routes = nlohmann::json::parse(yard({"routes", "--json"}).out);
    for (auto& b : routes["backends"])
      if (b["backend"] == "sge") return b;
    return nlohmann::json{};
  };
  std::vector<long> before;
  for (int i = 0; i < 3; ++i)
    before.push_back(sge_submit({"-o", "/dev/null", "--", "sh", "-c", "while [ ! -e go ]; do sleep 0.2; done"}));
  ASSERT_TRUE(wait_until([&] { return job(before[0])["state"] == "RUNNING"; }, 120)) << diag();
  EXPECT_EQ(sge_health()["down"], "");
  const long qmaster = std::stol(sh(std::string("cat ") + state + "/qmaster.pid"));
  ASSERT_EQ(::kill(static_cast<pid_t>(qmaster), SIGTERM), 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(qmaster); }, 60));
  ASSERT_TRUE(wait_until([&] { return sge_health()["down"] != ""; }, 60)) << diag();
  auto health = sge_health();
  EXPECT_NE(health["down"].get<std::string>().find("failed calls in a row"), std::string::npos) << health.dump();
  EXPECT_EQ(health["pending"].get<int>() + health["running"].get<int>(), 3) << health.dump();  // still its own

  // New jobs wished for Grid Engine run on the fallback meanwhile.
  Output o = yard({"submit", "--json", "--backend", "sge", "--", "true"});
  ASSERT_EQ(o.rc, 0) << o.err;
  auto reply = nlohmann::json::parse(o.out);
  EXPECT_NE(reply["route"].get<std::string>().find("sge down ("), std::string::npos) << o.out;
  EXPECT_NE(reply["route"].get<std::string>().find(") -> local"), std::string::npos) << o.out;
  const long rerouted = reply["ids"][0].get<long>();
  EXPECT_EQ(wait({rerouted}), 0);
  EXPECT_EQ(job(rerouted)["backend"], "local");
  EXPECT_EQ(job(rerouted)["state"], "COMPLETED");
  Output table = yard({"routes"});
  EXPECT_NE(table.out.find("when down new jobs to local"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("down     "), std::string::npos) << table.out;

  ASSERT_EQ(restart_cell(state), "");
  ASSERT_TRUE(wait_until([&] { return sge_health()["down"] == ""; }, 120)) << diag();
  const long back = sge_submit({"-o", "/dev/null", "--", "true"});
  EXPECT_EQ(job(back)["backend"], "sge");
  write("go", "");
  ASSERT_TRUE(all_ended(300)) << diag();
  for (long id : {before[0], before[1], before[2], back}) {
    auto j = job(id);
    EXPECT_EQ(j["state"], "COMPLETED") << j.dump();
    EXPECT_EQ(j["backend"], "sge") << j.dump();
    EXPECT_EQ(native_jobs_named(j["uid"]), 1) << j.dump();  // none submitted twice
  }
  // Charged where they ran: Grid Engine's four and the fallback's one.
  Output charged = yard({"accounts", "--by", "target", "--json"});
  ASSERT_EQ(charged.rc, 0) << charged.err;
  std::map<std::string, long> jobs_by_target;
  for (auto& row : nlohmann::json::parse(charged.out)) jobs_by_target[row["target"]] += row["jobs"].get<long>();
  EXPECT_EQ(jobs_by_target["sge"], 4) << charged.out;
  EXPECT_EQ(jobs_by_target["local"], 1) << charged.out;
}

}  // namespace
}  // namespace yard::test
