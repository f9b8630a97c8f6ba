// The Slurm tests' world: a yard world (integration/harness.h) whose daemon talks to the
// real Slurm 22.05 cluster the CTest fixture started (SLURM_CONF names it), and the
// tools to look at that cluster. Every test has its own HOME, daemon and store; the tests
// run one at a time (they share the cluster), and each cancels its Slurm jobs when it ends.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "../integration/harness.h"

namespace yard::test {

namespace fs = std::filesystem;

// The cluster's state directory: SLURM_CONF is <state>/etc/slurm.conf.
inline std::string state_dir() {
  const char* conf = std::getenv("SLURM_CONF");
  return conf ? fs::path(conf).parent_path().parent_path().string() : "";
}

class SlurmWorld : public YardWorld {
 protected:
  void SetUp() override {
    ASSERT_NE(std::getenv("SLURM_CONF"), nullptr) << "run through ctest: the fixture starts the cluster";
    YardWorld::SetUp();
    fs::create_directories(dir_ + "/config/switchyard");
    // Fast cycles for short tests; LOST only after 30 s of absence (sacct trails squeue).
    write("config/switchyard/slurm.yaml", "poll_interval: 0.5\ncalls_per_second: 4\nburst: 4\nlost_after: 30\n");
  }
  void TearDown() override {
    // This world's jobs only: their native ids from its own store.
    for (auto& j : status())
      if (!j["native_id"].is_null()) sh("scancel " + j["native_id"].get<std::string>() + " 2>/dev/null");
    YardWorld::TearDown();
  }
  long slurm_submit(std::vector<std::string> args) {
    args.insert(args.begin(), {"--backend", "slurm"});
    return submit(args);
  }
  // What to look at when a test fails: yard's view, Slurm's, and the daemon's log.
  std::string diag() {
    return "\nyard status:\n" + yard({"status"}).out + "squeue:\n" + sh("squeue -a 2>&1") + "daemon.log:\n" +
           sh("tail -20 " + dir_ + "/state/switchyard/daemon.log");
  }
  bool wait_state(long id, const std::string& state, double seconds = 60) {
    return wait_until([&] { return job(id)["state"] == state; }, seconds);
  }
  // How many Slurm jobs (in the accounting, whatever their state) carry `uid` in their name.
  int native_jobs_named(const std::string& uid) {
    std::string out = sh("sacct -X -n -P -a -S now-3600 -o JobIDRaw,JobName 2>/dev/null");
    std::set<std::string> ids;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
      if (line.find(uid) != std::string::npos) ids.insert(line.substr(0, line.find('|')));
    return static_cast<int>(ids.size());
  }
};

}  // namespace yard::test
