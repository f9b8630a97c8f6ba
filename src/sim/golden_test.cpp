// Golden scenarios (tests/sim): a small trace in, expected start times out, per policy.
// The policy "config" means the scenario's policy config NAME.yaml, simulated with
// simulate_policy; its row "preemptions" gives the expected number of preemptions.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "sched/policy.h"
#include "sched/policy_config.h"
#include "sim/policy_sim.h"
#include "sim/simulator.h"
#include "sim/swf_reader.h"
#include "sim/workload.h"

namespace yard::sim {
namespace {

namespace fs = std::filesystem;

// policy -> job id (or "preemptions") -> expected start (or count)
using Expected = std::map<std::string, std::map<std::string, Time>>;

Expected read_expected(const fs::path& path) {
  Expected expected;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string policy, id, start;
    if (std::getline(fields, policy, ',') && std::getline(fields, id, ',') &&
        std::getline(fields, start)) {
      expected[policy][id] = std::stoll(start);
    }
  }
  return expected;
}

void check_config_scenario(const fs::path& swf, const SwfTrace& trace,
                           const std::map<std::string, Time>& expected) {
  fs::path config_path = swf;
  config_path.replace_extension(".yaml");
  auto config = sched::load_policy_config(config_path.string());
  ASSERT_TRUE(config.ok()) << config.error();
  auto pools = pool_sizes(*config, *trace.max_procs);
  ASSERT_TRUE(pools.ok()) << pools.error();
  auto jobs = policy_jobs_from_swf(trace, *config, *pools);
  ASSERT_TRUE(jobs.ok()) << jobs.error();
  auto result = simulate_policy(*jobs, *config, *pools);
  ASSERT_TRUE(result.ok()) << result.error();
  ASSERT_EQ(expected.size(), jobs->size() + 1) << swf << ": every job and preemptions";
  for (std::size_t i = 0; i < jobs->size(); ++i) {
    EXPECT_EQ(result->result.start[i], expected.at(std::to_string((*jobs)[i].job.id)))
        << swf.filename() << " config: job " << (*jobs)[i].job.id;
  }
  EXPECT_EQ(static_cast<Time>(result->preemptions), expected.at("preemptions")) << swf.filename();
}

TEST(Golden, EveryScenarioUnderEveryListedPolicy) {
  const fs::path dir = YARD_GOLDEN_DIR;
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  int scenarios = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".swf") continue;
    fs::path expected_path = entry.path();
    expected_path.replace_extension(".expected.csv");
    ASSERT_TRUE(fs::exists(expected_path)) << expected_path;
    ++scenarios;
    auto trace = read_swf(entry.path().string());
    ASSERT_TRUE(trace.ok()) << trace.error();
    ASSERT_TRUE(trace->max_procs.has_value()) << entry.path();
    const auto jobs = jobs_from_swf(*trace, *trace->max_procs);
    for (const auto& [name, starts] : read_expected(expected_path)) {
      if (name == "config") {
        check_config_scenario(entry.path(), *trace, starts);
        continue;
      }
      const auto policy = sched::policy_by_name(name);
      ASSERT_TRUE(policy.has_value()) << name;
      auto result = simulate(jobs, *trace->max_procs, *policy);
      ASSERT_TRUE(result.ok()) << result.error();
      ASSERT_EQ(starts.size(), jobs.size()) << entry.path() << " " << name;
      for (std::size_t i = 0; i < jobs.size(); ++i) {
        EXPECT_EQ(result->start[i], starts.at(std::to_string(jobs[i].id)))
            << entry.path().filename() << " " << name << ": job " << jobs[i].id;
      }
    }
  }
  EXPECT_GT(scenarios, 0);
}

}  // namespace
}  // namespace yard::sim
