// The PBS Pro stand-in's server out of reach for a while, and the daemon killed between
// qsub and storing the id: no job lost, none submitted twice, all end with their true
// states.
#include "pbs_stand_in_world.h"

namespace yard::test {
namespace {

TEST_F(PbsStandInWorld, ServerUnreachableWith30JobsNoneLostNoneTwice) {
  std::vector<long> ids;
  // 30 jobs on 4 CPUs that hold them until `go` exists: some run while others queue.
  for (int i = 0; i < 30; ++i)
    ids.push_back(pbs_submit({"-o", "/dev/null", "--", "sh", "-c", "while [ ! -e go ]; do sleep 0.2; done"}));
  auto count = [&](const std::string& wanted) {
    int n = 0;
    for (auto& j : status()) n += j["state"] == wanted;
    return n;
  };
  ASSERT_TRUE(wait_until([&] { return count("RUNNING") > 0 && count("PENDING") > 0; }, 120)) << diag();
  ASSERT_EQ(ctl("outage on"), 0);
  // The outage itself lasts 10 s (this is the scenario, not a wait for a condition);
  // jobs submitted meanwhile meet the unreachable server, whose running jobs go on.
  for (int i = 0; i < 5; ++i) ids.push_back(pbs_submit({"-o", "/dev/null", "--", "true"}));
  std::this_thread::sleep_for(std::chrono::seconds(10));
  EXPECT_EQ(count("COMPLETED") + count("FAILED") + count("LOST"), 0) << diag();  // nothing judged blind
  const auto waiting = job(ids[34]);
  EXPECT_NE(waiting["reason"].get<std::string>().find("not submitted yet: pbs: "), std::string::npos) << waiting.dump();
  ASSERT_EQ(ctl("outage off"), 0);
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
  EXPECT_GT(server["pbs_calls"]["failed"].get<int>(), 0) << server.dump();  // the outage was seen, and survived
}

// A qsub that submits, then hangs before answering; the daemon is killed meanwhile.
class PbsStandInCrashWorld : public PbsStandInWorld {
 protected:
  void start_with_hanging_qsub() {
    fs::create_directories(dir_ + "/slowbin");
    write("slowbin/qsub", "#!/bin/sh\nqsub=$(PATH=" + std::string(std::getenv("PATH")) +
                              " command -v qsub)\n\"$qsub\" \"$@\"\nrc=$?\necho $$ > " + dir_ +
                              "/qsub-returned\nsleep 300\nexit $rc\n");
    fs::permissions(dir_ + "/slowbin/qsub", fs::perms::owner_all);
    std::string path = std::string("PATH=") + dir_ + "/slowbin:" + std::getenv("PATH");
    auto started = yard({"server", "start"}, {path});
    ASSERT_EQ(started.rc, 0) << started.out << started.err << diag();
  }
  void crash_once_submitted() {
    long pid = daemon_pid();
    ASSERT_TRUE(wait_until([&] { return fs::exists(dir_ + "/qsub-returned"); }, 60));
    ::kill(static_cast<pid_t>(pid), SIGKILL);
    ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 30));
    long wrapper = std::atol(read("qsub-returned").c_str());
    if (wrapper > 0) ::kill(static_cast<pid_t>(-wrapper), SIGKILL);  // its process group, sleep and all
  }
};

TEST_F(PbsStandInCrashWorld, AJobStillQueuedIsFoundByItsUidNotSubmittedTwice) {
  start_with_hanging_qsub();
  long id = pbs_submit({"--", "sleep", "3"});
  crash_once_submitted();
  auto uid = stored_job(id)["uid"].get<std::string>();
  EXPECT_TRUE(stored_job(id)["native_id"].is_null());  // the id never reached the store
  ASSERT_EQ(yard({"server", "start"}).rc, 0);           // normal qsub from now on
  ASSERT_EQ(wait({id}), 0) << job(id).dump() << diag();
  EXPECT_TRUE(job(id)["native_id"].is_string());
  EXPECT_EQ(native_jobs_named(uid), 1);  // submitted once
}

TEST_F(PbsStandInCrashWorld, AJobThatEndedWhileYardWasDownIsFoundInTheServersHistory) {
  start_with_hanging_qsub();
  long id = pbs_submit({"-J", "gone", "--", "sh", "-c", "echo ran >> runs.txt; exit 3"});
  crash_once_submitted();
  auto uid = stored_job(id)["uid"].get<std::string>();
  ASSERT_TRUE(stored_job(id)["native_id"].is_null());
  // It runs and ends while no daemon runs; the server keeps its record (qstat -x).
  ASSERT_TRUE(wait_until([&] { return fs::exists(dir_ + "/runs.txt"); }, 60)) << diag();
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  EXPECT_EQ(wait({id}), 1);
  auto j = job(id);
  EXPECT_EQ(j["state"], "FAILED") << j.dump();
  EXPECT_EQ(j["exit_code"], 3) << j.dump();
  EXPECT_EQ(native_jobs_named(uid), 1);  // submitted once
  EXPECT_EQ(read("runs.txt"), "ran\n");  // and ran once
}

}  // namespace
}  // namespace yard::test
