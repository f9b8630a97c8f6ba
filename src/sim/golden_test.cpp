// Golden scenarios (tests/sim): a small trace in, expected start times out, per policy.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "sched/policy.h"
#include "sim/simulator.h"
#include "sim/swf_reader.h"
#include "sim/workload.h"

namespace yard::sim {
namespace {

namespace fs = std::filesystem;

// policy -> job id -> expected start
using Expected = std::map<std::string, std::map<std::int64_t, Time>>;

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
      expected[policy][std::stoll(id)] = std::stoll(start);
    }
  }
  return expected;
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
      const auto policy = sched::policy_by_name(name);
      ASSERT_TRUE(policy.has_value()) << name;
      auto result = simulate(jobs, *trace->max_procs, *policy);
      ASSERT_TRUE(result.ok()) << result.error();
      ASSERT_EQ(starts.size(), jobs.size()) << entry.path() << " " << name;
      for (std::size_t i = 0; i < jobs.size(); ++i) {
        EXPECT_EQ(result->start[i], starts.at(jobs[i].id))
            << entry.path().filename() << " " << name << ": job " << jobs[i].id;
      }
    }
  }
  EXPECT_GT(scenarios, 0);
}

}  // namespace
}  // namespace yard::sim
