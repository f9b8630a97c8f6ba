// The Grid Engine tests' world: a yard world (integration/harness.h) whose daemon talks
// to the real Grid Engine 8.1.9 cluster the CTest fixture started (SGE_ROOT names its
// cell, PATH its direct binaries), and the tools to look at that cluster. Every test has
// its own HOME, daemon and store; the tests run one at a time (they share the cluster's
// 4 slots), and each deletes its Grid Engine jobs when it ends. They run as the
// unprivileged user the fixture names (ctest runs them through setpriv), but for the
// qmaster outage, which needs root to stop and start the qmaster.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "../integration/harness.h"

namespace yard::test {

namespace fs = std::filesystem;

// How many Grid Engine jobs (queued, or in the accounting) carry `uid` in their name.
inline int sge_jobs_named(const std::string& uid) {
  std::set<std::string> ids;
  std::istringstream acct(sh("qacct -j '*" + uid + "*' 2>/dev/null"));
  for (std::string line; std::getline(acct, line);)
    if (line.rfind("jobnumber", 0) == 0) ids.insert(line.substr(line.find_first_of("0123456789")));
  std::istringstream queue(sh("qstat -u '*' -r 2>/dev/null"));
  std::string id;
  for (std::string line; std::getline(queue, line);) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (!first.empty() && first.find_first_not_of("0123456789") == std::string::npos) id = first;
    if (line.find("Full jobname:") != std::string::npos && line.find(uid) != std::string::npos) ids.insert(id);
  }
  for (auto it = ids.begin(); it != ids.end();) it = it->empty() ? ids.erase(it) : std::next(it);
  std::set<std::string> trimmed;
  for (auto& i : ids) trimmed.insert(i.substr(0, i.find_first_of(" \t")));
  return static_cast<int>(trimmed.size());
}

class SgeWorld : public YardWorld {
 protected:
  void SetUp() override {
    ASSERT_NE(std::getenv("SGE_ROOT"), nullptr) << "run through ctest: the fixture starts the cluster";
    YardWorld::SetUp();
    fs::create_directories(dir_ + "/config/switchyard");
    // Fast cycles for short tests; LOST only after 30 s of absence (qacct trails qstat);
    // the test cluster flushes its accounting every second (scripts/sge/start.sh).
    write("config/switchyard/sge.yaml",
          "poll_interval: 0.5\ncalls_per_second: 4\nburst: 4\nlost_after: 30\naccounting_lag: 3\n");
  }
  void TearDown() override {
    // This world's jobs only: their native ids from its own store.
    for (auto& j : status())
      if (!j["native_id"].is_null()) sh("qdel " + j["native_id"].get<std::string>() + " >/dev/null 2>&1");
    YardWorld::TearDown();
  }
  long sge_submit(std::vector<std::string> args) {
    args.insert(args.begin(), {"--backend", "sge"});
    return submit(args);
  }
  // What to look at when a test fails: yard's view, Grid Engine's, and the daemon's log.
  std::string diag() {
    return "\nyard status:\n" + yard({"status"}).out + "qstat:\n" + sh("qstat -u '*' 2>&1") + "daemon.log:\n" +
           sh("tail -40 " + dir_ + "/state/switchyard/daemon.log");
  }
  bool wait_state(long id, const std::string& state, double seconds = 60) {
    return wait_until([&] { return job(id)["state"] == state; }, seconds);
  }
  int native_jobs_named(const std::string& uid) { return sge_jobs_named(uid); }
};

}  // namespace yard::test
