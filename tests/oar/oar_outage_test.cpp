// OAR's server going away in the middle of a workload: no job lost, none submitted twice,
// all end with their true states once it is back. The test runs as root, who alone may
// stop and start the server; yard and its daemon run as the test user
// (tests/integration/yard_as_test_user.sh), as OAR refuses jobs from root.
#include "oar_world.h"

namespace yard::test {
namespace {

class OarOutageWorld : public OarWorld {
 protected:
  void SetUp() override {
    OarWorld::SetUp();
    const char* user = std::getenv("YARD_TEST_USER");
    ASSERT_NE(user, nullptr) << "run through ctest: its emulator runs yard as the test user";
    user_ = user;
    give_world_to_user();
  }
  void give_world_to_user() { sh("chown -R " + user_ + ": " + dir_); }
  std::string user_;
};

TEST_F(OarOutageWorld, ServerDownWith20JobsNoneLostNoneTwice) {
  const std::string state = std::getenv("YARD_OAR_STATE");
  std::vector<long> ids;
  // 20 jobs on 4 cores that hold them until `go` exists: some run while others wait.
  for (int i = 0; i < 20; ++i)
    ids.push_back(oar_submit({"-o", "/dev/null", "--", "sh", "-c", "while [ ! -e go ]; do sleep 0.2; done"}));
  auto count = [&](const std::string& wanted) {
    int n = 0;
    for (auto& j : status()) n += j["state"] == wanted;
    return n;
  };
  ASSERT_TRUE(wait_until([&] { return count("RUNNING") > 0 && count("PENDING") > 0; }, 120)) << diag();
  // Almighty and its modules (the scheduler, the launchers), stopped as stop.sh does.
  write("outage.sh", ". " YARD_SOURCE_DIR "/scripts/oar/common.sh\n"
                     "case $1 in\n"
                     "  stop) pid=$(yard_oar_almighty_pid \"$2\") && kill $pid $(yard_oar_descendants $pid) ;;\n"
                     "  down) ! yard_oar_almighty_pid \"$2\" >/dev/null && ! yard_oar_listening 6666 ;;\n"
                     "esac\n");
  int rc = 0;
  sh("bash " + dir_ + "/outage.sh stop " + state, &rc);
  ASSERT_EQ(rc, 0) << "no Almighty of the fixture's cluster";
  ASSERT_TRUE(wait_until([&] {
    int down = 0;
    sh("bash " + dir_ + "/outage.sh down " + state, &down);
    return down == 0;
  }, 60));
  // The outage itself lasts 10 s (this is the scenario, not a wait for a condition);
  // jobs submitted meanwhile meet the missing server (oarsub stores them all the same).
  for (int i = 0; i < 5; ++i) ids.push_back(oar_submit({"-o", "/dev/null", "--", "true"}));
  std::this_thread::sleep_for(std::chrono::seconds(10));
  EXPECT_EQ(count("COMPLETED") + count("FAILED") + count("LOST"), 0) << diag();  // nothing judged blind
  sh("bash " YARD_SOURCE_DIR "/scripts/oar/start.sh " + state + " >/dev/null 2>&1", &rc);
  ASSERT_EQ(rc, 0) << "the server did not come back";
  write("go", "");
  ASSERT_TRUE(wait_until([&] { return count("COMPLETED") == 25; }, 300)) << diag();
  std::set<std::string> natives;
  for (auto& j : status()) natives.insert(j["native_id"].is_string() ? j["native_id"].get<std::string>() : "");
  EXPECT_EQ(natives.size(), 25u);
  for (long id : ids) EXPECT_EQ(native_jobs_named(job(id)["uid"]), 1) << id;
  auto server = nlohmann::json::parse(yard({"server", "status", "--json"}).out);
  EXPECT_GT(server["oar_calls"]["failed"].get<int>(), 0) << server.dump();  // the outage was seen, and survived
}

}  // namespace
}  // namespace yard::test
