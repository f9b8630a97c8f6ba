// The PBS Pro tests' world: a yard world (integration/harness.h) whose daemon talks to the
// PBS Pro stand-in scheduler the CTest fixture started (tests/stand-in-schedulers: no
// Debian package gives a PBS server, so a stand-in keeps a real queue, runs the jobs and
// prints PBS Pro's documented formats). YARD_STANDIN_DIR names its state, PATH its qsub,
// qstat and qdel. Every test has its own HOME, daemon and store; the tests run one at a
// time, and each deletes its jobs when it ends.
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

class PbsStandInWorld : public YardWorld {
 protected:
  void SetUp() override {
    ASSERT_NE(std::getenv("YARD_STANDIN_DIR"), nullptr) << "run through ctest: the fixture starts the stand-in";
    YardWorld::SetUp();
    fs::create_directories(dir_ + "/config/switchyard");
    write("config/switchyard/pbs.yaml", "poll_interval: 0.5\ncalls_per_second: 4\nburst: 4\nlost_after: 30\n");
  }
  void TearDown() override {
    for (auto& j : status())
      if (!j["native_id"].is_null()) sh("qdel " + j["native_id"].get<std::string>() + " >/dev/null 2>&1");
    YardWorld::TearDown();
  }
  long pbs_submit(std::vector<std::string> args) {
    args.insert(args.begin(), {"--backend", "pbs"});
    return submit(args);
  }
  // What to look at when a test fails: yard's view, the stand-in's, and the daemon's log.
  std::string diag() {
    return "\nyard status:\n" + yard({"status"}).out + "qstat -x:\n" + sh("qstat -x 2>&1 | tail -40") +
           "daemon.log:\n" + sh("tail -40 " + dir_ + "/state/switchyard/daemon.log");
  }
  bool wait_state(long id, const std::string& state, double seconds = 60) {
    return wait_until([&] { return job(id)["state"] == state; }, seconds);
  }
  bool all_ended(double seconds) {
    return wait_until(
        [&] {
          for (auto& j : status())
            if (j["state"] == "PENDING" || j["state"] == "RUNNING") return false;
          return true;
        },
        seconds);
  }
  // The server's record of `native_id` (qstat -x -f -F json), or null.
  nlohmann::json pbs_record(const std::string& native_id) {
    auto out = sh("qstat -x -f -F json " + native_id + " 2>/dev/null");
    auto root = nlohmann::json::parse(out, nullptr, false);
    if (root.is_discarded() || !root.contains("Jobs")) return nullptr;
    for (auto& [id, rec] : root["Jobs"].items()) return rec;
    return nullptr;
  }
  // How many jobs the server knows (queued, running or in its history) whose name
  // carries `uid`.
  int native_jobs_named(const std::string& uid) {
    auto root = nlohmann::json::parse(sh("qstat -x -f -F json 2>/dev/null"), nullptr, false);
    if (root.is_discarded() || !root.contains("Jobs")) return 0;
    int n = 0;
    for (auto& [id, rec] : root["Jobs"].items())
      n += rec.value("Job_Name", std::string()).find(uid) != std::string::npos;
    return n;
  }
  // `standin-ctl ARGS` on the fixture's stand-in.
  int ctl(const std::string& args) {
    int rc = 0;
    sh("python3 " YARD_SOURCE_DIR "/tests/stand-in-schedulers/standin-ctl " + args + " 2>&1", &rc);
    return rc;
  }
};

}  // namespace yard::test
