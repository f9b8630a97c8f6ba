// SDSC-SP2 replayed under the four policies must reproduce pyss: the means published in
// the simulator issue, and for EASY every job's start time (SDSC_SP2_easy.starts.csv.gz).
// The trace lives in tests/traces; if it is missing the test fails.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "sched/policy.h"
#include "sim/metrics.h"
#include "sim/policy_sim.h"
#include "sched/policy_config.h"
#include "sim/simulator.h"
#include "sim/swf_reader.h"

namespace yard::sim {
namespace {

const std::string kDir = YARD_TRACES_DIR;

class SdscSp2 : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto trace = read_swf(kDir + "/SDSC-SP2-1998-4.2-cln.swf.gz");
    ASSERT_TRUE(trace.ok()) << trace.error();
    ASSERT_TRUE(trace->max_procs.has_value());
    machine_ = *trace->max_procs;
    jobs_ = new std::vector<SimJob>(jobs_from_swf(*trace, machine_));
  }
  static void TearDownTestSuite() {
    delete jobs_;
    jobs_ = nullptr;
  }

  static SimResult run(sched::Policy policy) {
    auto result = simulate(*jobs_, machine_, policy);
    EXPECT_TRUE(result.ok());
    return result.ok() ? *result : SimResult{};
  }

  static void expect_means(sched::Policy policy, double wait, double bsld) {
    ASSERT_NE(jobs_, nullptr);
    const SimResult result = run(policy);
    ASSERT_EQ(result.start.size(), jobs_->size());
    const Metrics m = compute_metrics(*jobs_, result, machine_);
    EXPECT_EQ(m.jobs, 54034u);
    EXPECT_NEAR(m.avg_wait_s, wait, 0.05);
    EXPECT_NEAR(m.avg_bounded_slowdown, bsld, 0.0005);
  }

  static inline std::vector<SimJob>* jobs_ = nullptr;
  static inline Procs machine_ = 0;
};

TEST_F(SdscSp2, FcfsMeans) { expect_means(sched::Policy::fcfs(), 1536403.1, 13860.614); }
TEST_F(SdscSp2, EasyMeans) { expect_means(sched::Policy::easy(), 20503.2, 88.607); }
TEST_F(SdscSp2, SjbfMeans) { expect_means(sched::Policy::sjbf(), 20778.7, 84.845); }
TEST_F(SdscSp2, ConservativeMeans) {
  expect_means(sched::Policy::conservative(), 21921.0, 89.942);
}

// job_id -> start, from pyss's EASY run.
std::map<std::int64_t, Time> reference_starts() {
  std::map<std::int64_t, Time> starts;
  std::unique_ptr<gzFile_s, int (*)(gzFile)> f(
      gzopen((kDir + "/SDSC_SP2_easy.starts.csv.gz").c_str(), "rb"), gzclose);
  if (!f) return starts;
  char line[256];
  while (gzgets(f.get(), line, sizeof line) != nullptr) {
    long long id = 0, submit = 0, start = 0;
    if (std::sscanf(line, "%lld,%lld,%lld", &id, &submit, &start) == 3) starts[id] = start;
  }
  return starts;
}

TEST_F(SdscSp2, EasyStartsEqualPyssJobForJob) {
  ASSERT_NE(jobs_, nullptr);
  const auto reference = reference_starts();
  ASSERT_EQ(reference.size(), jobs_->size());
  const SimResult result = run(sched::Policy::easy());
  int differences = 0;
  for (std::size_t i = 0; i < jobs_->size(); ++i) {
    const auto it = reference.find((*jobs_)[i].id);
    ASSERT_NE(it, reference.end()) << "job " << (*jobs_)[i].id << " not in the reference";
    if (it->second != result.start[i] && ++differences <= 5) {
      ADD_FAILURE() << "job " << it->first << ": start " << result.start[i] << ", pyss "
                    << it->second;
    }
  }
  EXPECT_EQ(differences, 0);
}

// The PolicyEngine under a neutral config (no tiers, weights 0, reservation depth 1, one
// pool of the machine) against the Backfiller's EASY, on the first 2,000 jobs. On the
// whole trace 2,375 of 54,034 jobs differ, first job 2240, because of the simulation
// loops, not the pass: pyss (and simulate()) runs one pass per event (each submission, then
// each termination of the same instant separately), simulate_policy one pass per instant
// after all of its terminations and submissions. At 2401174 two jobs end: pyss backfills
// job 2244 (2 procs) into what the first frees before the head, job 2240 (4 procs), sees
// both; the engine starts 2240. Run with pyss's per-event passes, 45 jobs still differ
// for a second reason of the same kind: a job ending exactly at its estimate is still
// running at that instant's submission pass, and the engine holds a job at its estimate
// one more second (a real job may not have ended yet) where pyss frees it. With both
// made as pyss does, every one of the 54,034 start times agrees.
TEST(SdscSp2Engine, NeutralConfigMatchesEasyOnTheFirst2000Jobs) {
  auto trace = read_swf(kDir + "/SDSC-SP2-1998-4.2-cln.swf.gz");
  ASSERT_TRUE(trace.ok()) << trace.error();
  ASSERT_TRUE(trace->max_procs.has_value());
  const Procs machine = *trace->max_procs;
  const std::vector<SimJob> jobs = jobs_from_swf(*trace, machine, 2000);
  auto easy = simulate(jobs, machine, sched::Policy::easy());
  ASSERT_TRUE(easy.ok()) << easy.error();

  const sched::PolicyConfig neutral;
  auto pools = pool_sizes(neutral, machine);
  ASSERT_TRUE(pools.ok()) << pools.error();
  auto policy_jobs = policy_jobs_from_swf(*trace, neutral, *pools, 2000);
  ASSERT_TRUE(policy_jobs.ok()) << policy_jobs.error();
  ASSERT_EQ(policy_jobs->size(), jobs.size());
  auto engine = simulate_policy(*policy_jobs, neutral, *pools);
  ASSERT_TRUE(engine.ok()) << engine.error();
  int differences = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    ASSERT_EQ((*policy_jobs)[i].job.id, jobs[i].id);
    if (engine->result.start[i] != easy->start[i] && ++differences <= 5) {
      ADD_FAILURE() << "job " << jobs[i].id << ": engine " << engine->result.start[i]
                    << ", Backfiller " << easy->start[i];
    }
  }
  EXPECT_EQ(differences, 0);
}

}  // namespace
}  // namespace yard::sim
