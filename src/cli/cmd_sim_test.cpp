// `yard sim` end to end through its CLI11 subcommand.
#include "cli/cmd_sim.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace yard {
namespace {

namespace fs = std::filesystem;

// One directory per test process: ctest runs these tests side by side, and one test's
// trace must not be rewritten under another's feet.
const fs::path kDir = fs::temp_directory_path() / ("yard_cmd_sim_test-" + std::to_string(::getpid()));
struct RemovedAtExit {
  ~RemovedAtExit() {
    std::error_code ec;
    fs::remove_all(kDir, ec);
  }
} removed_at_exit;

std::string write_trace(const std::string& name, const std::string& text) {
  fs::create_directories(kDir);
  const std::string path = (kDir / name).string();
  std::ofstream(path) << text;
  return path;
}

constexpr const char* kTrace =
    "; MaxProcs: 4\n"
    "1 0 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
    "2 0 0 5 2 -1 -1 2 10 -1 1 1 1 1 1 -1 -1 -1\n";

struct Outcome {
  int rc;
  std::string out, err;
};

SimOptions options(const std::string& trace, const std::string& policy) {
  SimOptions o;
  o.trace = trace;
  o.policy = policy;
  return o;
}

Outcome run(SimOptions o) {
  std::ostringstream out, err;
  const int rc = run_sim(o, out, err);
  return {rc, out.str(), err.str()};
}

TEST(CmdSim, JsonHasTheSixKeys) {
  SimOptions o = options(write_trace("ok.swf", kTrace), "easy");
  o.json = true;
  const Outcome r = run(o);
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.size(), 6u);
  EXPECT_EQ(j["jobs"], 2);
  EXPECT_DOUBLE_EQ(j["avg_wait_s"].get<double>(), 50.0);
  EXPECT_EQ(j["max_wait_s"], 100);
  EXPECT_EQ(j["makespan_s"], 105);
  EXPECT_TRUE(j.contains("avg_bounded_slowdown"));
  EXPECT_TRUE(j.contains("utilization"));
}

TEST(CmdSim, WritesJobsCsvAndPlot) {
  SimOptions o = options(write_trace("ok.swf", kTrace), "conservative");
  o.jobs_csv = (kDir / "jobs.csv").string();
  o.plot = (kDir / "plot.svg").string();
  const Outcome r = run(o);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("avg bounded slowdown"), std::string::npos);
  std::ifstream csv(o.jobs_csv);
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header, "job_id,submit,start,run,procs,est");
  EXPECT_TRUE(fs::file_size(o.plot) > 100);
}

TEST(CmdSim, BadInputExitsWithTwo) {
  const std::string good = write_trace("ok.swf", kTrace);
  EXPECT_EQ(run(options(good, "lifo")).rc, 2);
  EXPECT_EQ(run(options((kDir / "missing.swf").string(), "easy")).rc, 2);
  const std::string bad = write_trace("bad.swf", std::string(kTrace) + "3 x\n");
  const Outcome r = run(options(bad, "easy"));
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("line 4"), std::string::npos) << r.err;
  SimOptions lenient = options(bad, "easy");
  lenient.lenient = true;
  EXPECT_EQ(run(lenient).rc, 0);
  const std::string headless = write_trace("headless.swf", "1 0 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n");
  EXPECT_EQ(run(options(headless, "easy")).rc, 2);
  SimOptions sized = options(headless, "easy");
  sized.procs = 8;
  EXPECT_EQ(run(sized).rc, 0);
  SimOptions unwritable = options(good, "easy");
  unwritable.jobs_csv = (kDir / "no" / "such" / "dir.csv").string();
  EXPECT_EQ(run(unwritable).rc, 2);
}

TEST(CmdSim, ConfigRunsThePolicyEngineAndReportsPreemptions) {
  // Job 1 (user 2, best effort) is preempted at 1 by job 2 (user 1).
  const std::string trace = write_trace("pre.swf",
                                        "; MaxProcs: 4\n"
                                        "1 0 0 100 4 -1 -1 4 100 -1 1 2 1 1 1 -1 -1 -1\n"
                                        "2 1 0 10 4 -1 -1 4 10 -1 1 1 1 1 1 -1 -1 -1\n");
  const std::string config = write_trace("pre.yaml",
                                         "weights: {tier: 1}\n"
                                         "tiers: [{name: a, priority: 2}, {name: b, priority: 1, best_effort: true}]\n"
                                         "accounts: [{name: x, tier: a}, {name: y, tier: b}]\n"
                                         "account_map: {1: x}\ndefault_account: y\n");
  SimOptions o;
  o.trace = trace;
  o.config = config;
  o.json = true;
  Outcome r = run(o);
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["preemptions"], 1);
  EXPECT_EQ(j["jobs"], 2);
  EXPECT_EQ(j["max_wait_s"], 11);  // job 1 runs again from 11

  o.config = write_trace("bad.yaml", "weights: {tier: lots}\n");
  r = run(o);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("bad.yaml:1: weights.tier: expected a number"), std::string::npos) << r.err;

  o.policy = "easy";
  r = run(o);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("either --policy or --config"), std::string::npos) << r.err;
}

// CLI11 takes a vector of arguments last first.
void parse(CLI::App& app, std::vector<std::string> args) {
  std::reverse(args.begin(), args.end());
  app.parse(args);
}

TEST(CmdSim, SubcommandParsesFlagsAndReportsFailureAsExitStatus) {
  CLI::App app("test");
  add_sim_command(app);
  const std::string bad = write_trace("bad.swf", std::string(kTrace) + "3 x\n");
  try {
    parse(app, {"sim", bad, "--policy", "easy"});
    FAIL() << "expected a RuntimeError";
  } catch (const CLI::RuntimeError& e) {
    EXPECT_EQ(e.get_exit_code(), 2);
  }
  CLI::App ok("test");
  add_sim_command(ok);
  testing::internal::CaptureStdout();
  parse(ok, {"sim", write_trace("ok.swf", kTrace), "--policy", "fcfs", "--json", "--first", "1"});
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(nlohmann::json::parse(out)["jobs"], 1);
}

}  // namespace
}  // namespace yard
