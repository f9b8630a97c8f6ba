// The PolicyEngine under a neutral config (no tiers, every weight 0, reservation depth 1,
// one pool of the machine size) is EASY backfilling in submit order: it must give every
// job the start time that the pyss-exact Backfiller (simulate(), Policy::easy()) gives.
#include <gtest/gtest.h>

#include <string>

#include "sched/policy.h"
#include "sched/policy_config.h"
#include "sim/policy_sim.h"
#include "sim/simulator.h"
#include "sim/swf_reader.h"
#include "sim/workload.h"

namespace yard::sim {
namespace {

TEST(PolicyEquivalence, NeutralConfigMatchesEasyOnFourPolicies) {
  auto trace = read_swf(std::string(YARD_GOLDEN_DIR) + "/four_policies.swf");
  ASSERT_TRUE(trace.ok()) << trace.error();
  ASSERT_TRUE(trace->max_procs.has_value());
  const Procs machine = *trace->max_procs;

  const std::vector<SimJob> jobs = jobs_from_swf(*trace, machine);
  auto easy = simulate(jobs, machine, sched::Policy::easy());
  ASSERT_TRUE(easy.ok()) << easy.error();

  const sched::PolicyConfig neutral;  // depth 1, weights 0, no tiers, no pools
  ASSERT_EQ(neutral.reservation_depth, 1);
  auto pools = pool_sizes(neutral, machine);
  ASSERT_TRUE(pools.ok()) << pools.error();
  auto policy_jobs = policy_jobs_from_swf(*trace, neutral, *pools);
  ASSERT_TRUE(policy_jobs.ok()) << policy_jobs.error();
  auto engine = simulate_policy(*policy_jobs, neutral, *pools);
  ASSERT_TRUE(engine.ok()) << engine.error();

  ASSERT_EQ(policy_jobs->size(), jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    ASSERT_EQ((*policy_jobs)[i].job.id, jobs[i].id);
    EXPECT_EQ(engine->result.start[i], easy->start[i]) << "job " << jobs[i].id;
  }
}

}  // namespace
}  // namespace yard::sim
