// The OAR tests' world: a yard world (integration/harness.h) whose daemon talks to the
// real OAR 2.5.9 cluster the CTest fixture started (4 cores on one host), and the tools
// to look at that cluster. Every test has its own HOME, daemon and store; the tests run
// one at a time, and each deletes its OAR jobs when it ends. They run as the
// unprivileged user the fixture names (ctest runs them through setpriv): OAR refuses
// jobs from root.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>
#include <thread>

#include "../integration/harness.h"

namespace yard::test {

namespace fs = std::filesystem;

class OarWorld : public YardWorld {
 protected:
  void SetUp() override {
    ASSERT_NE(std::getenv("YARD_OAR_STATE"), nullptr) << "run through ctest: the fixture starts the cluster";
    YardWorld::SetUp();
    fs::create_directories(dir_ + "/config/switchyard");
    // Fast cycles for short tests; LOST only after 60 s of absence.
    write("config/switchyard/oar.yaml", "poll_interval: 0.5\ncalls_per_second: 4\nburst: 4\nlost_after: 60\n");
  }
  void TearDown() override {
    // This world's jobs only: their native ids from its own store.
    std::string ids;
    for (auto& j : status())
      if (!j["native_id"].is_null()) ids += " " + j["native_id"].get<std::string>();
    if (!ids.empty()) sh("oardel" + ids + " >/dev/null 2>&1");
    YardWorld::TearDown();
  }
  long oar_submit(std::vector<std::string> args) {
    args.insert(args.begin(), {"--backend", "oar"});
    return submit(args);
  }
  // What to look at when a test fails: yard's view, OAR's, and the daemon's log.
  std::string diag() {
    return "\nyard status:\n" + yard({"status"}).out + "oarstat:\n" + sh("oarstat 2>&1 | tail -20") +
           "daemon.log:\n" + sh("tail -40 " + dir_ + "/state/switchyard/daemon.log");
  }
  bool wait_state(long id, const std::string& state, double seconds = 90) {
    return wait_until([&] { return job(id)["state"] == state; }, seconds);
  }
  // How many OAR jobs, current or ended, carry `uid` in their name.
  int native_jobs_named(const std::string& uid) {
    const std::string out = sh("oarstat -J --sql \"job_name LIKE '%" + uid + "%'\" 2>/dev/null");
    if (out.find_first_not_of(" \n") == std::string::npos) return 0;
    auto doc = nlohmann::json::parse(out, nullptr, false);
    return doc.is_object() ? static_cast<int>(doc.size()) : -1;
  }
};

}  // namespace yard::test
