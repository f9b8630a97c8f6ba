// pyss's own oracle cases (tests/traces/pyss-cases, README beside them): a 100-processor
// machine; job line `submit id estimate processors actual_run adminQoS userQoS user`; the
// integer part of `id` is the job's expected finish time.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sched/policy.h"
#include "sim/simulator.h"

namespace yard::sim {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::vector<SimJob> jobs;
  std::vector<Time> expected_finish;
};

Case read_case(const fs::path& path) {
  Case c;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string id;
    SimJob job;
    if (!(fields >> job.submit >> id >> job.estimate >> job.procs >> job.run)) continue;
    if (job.estimate < job.run) continue;  // pyss's own reader drops these
    job.id = static_cast<std::int64_t>(c.jobs.size());
    c.jobs.push_back(job);
    c.expected_finish.push_back(std::stoll(id.substr(0, id.find('.'))));
  }
  return c;
}

// Runs every case file whose name starts with one of `prefixes` under `policy`.
void run_cases(const std::vector<std::string>& prefixes, sched::Policy policy) {
  const fs::path dir = fs::path(YARD_TRACES_DIR) / "pyss-cases";
  ASSERT_TRUE(fs::is_directory(dir)) << dir << " is missing";
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    bool wanted = false;
    for (const std::string& p : prefixes) wanted = wanted || name.rfind(p + ".", 0) == 0;
    if (!wanted) continue;
    ++files;
    const Case c = read_case(entry.path());
    ASSERT_FALSE(c.jobs.empty()) << name;
    auto result = simulate(c.jobs, 100, policy);
    ASSERT_TRUE(result.ok()) << name << ": " << result.error();
    for (std::size_t i = 0; i < c.jobs.size(); ++i) {
      EXPECT_EQ(result->start[i] + c.jobs[i].run, c.expected_finish[i])
          << name << ": job line " << i + 1 << " (submit " << c.jobs[i].submit << ")";
    }
  }
  EXPECT_GT(files, 0);
}

TEST(PyssCases, Fcfs) {
  run_cases({"basic_input", "extreme_input", "fcfs_input"}, sched::Policy::fcfs());
}

TEST(PyssCases, Easy) {
  run_cases({"basic_input", "extreme_input", "bf_input", "easy_bf_input"}, sched::Policy::easy());
}

TEST(PyssCases, Conservative) {
  run_cases({"basic_input", "extreme_input", "bf_input", "cons_bf_input"},
            sched::Policy::conservative());
}

}  // namespace
}  // namespace yard::sim
