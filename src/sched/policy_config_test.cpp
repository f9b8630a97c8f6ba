#include "sched/policy_config.h"

#include <gtest/gtest.h>

#include <string>

namespace yard::sched {
namespace {

TEST(PolicyConfig, EmptyTextGivesDefaults) {
  auto c = parse_policy_config("", "p.yaml");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->reservation_depth, 1);
  EXPECT_EQ(c->half_life, 7 * 86400);
  EXPECT_TRUE(c->tiers.empty());
  EXPECT_EQ(c->default_walltime, 3600);
}

TEST(PolicyConfig, MaxJobsPerPassDefaultsTo500AndRejectsNegatives) {
  auto d = parse_policy_config("", "p.yaml");
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(d->max_jobs_per_pass, 500u);
  auto c = parse_policy_config("max_jobs_per_pass: 0\n", "p.yaml");
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->max_jobs_per_pass, 0u);
  auto bad = parse_policy_config("max_jobs_per_pass: -1\n", "p.yaml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("p.yaml:1: max_jobs_per_pass"), std::string::npos) << bad.error();
}

TEST(PolicyConfig, DefaultWalltime) {
  auto c = parse_policy_config("default_walltime: 30m\n", "p.yaml");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->default_walltime, 1800);
  auto bad = parse_policy_config("default_walltime: 0\n", "p.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("p.yaml:1: default_walltime"), std::string::npos) << bad.error();
}

TEST(PolicyConfig, ParsesEveryKey) {
  auto c = parse_policy_config(R"(
reservation_depth: unlimited
backfill_order: shortest
weights: {tier: 1000, age: 10, fairshare: 100.5, size: 1}
fairshare: {half_life: 12h}
age: {max: 2-00:00:00}
tiers:
  - {name: gold, priority: 2}
  - {name: scavenger, priority: 1, best_effort: true}
accounts:
  - {name: a, tier: gold, share: 3, allocation_core_hours: 1000}
  - {name: b, tier: scavenger}
pools:
  - {name: cluster, procs: 16}
  - {name: booster}
account_from: group
account_map: {7: a}
default_account: b
)", "p.yaml");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_TRUE(c->policy().unlimited());
  EXPECT_EQ(c->backfill_order, BackfillOrder::kShortestEstimate);
  EXPECT_DOUBLE_EQ(c->weights.tier, 1000);
  EXPECT_DOUBLE_EQ(c->weights.fairshare, 100.5);
  EXPECT_EQ(c->half_life, 12 * 3600);
  EXPECT_EQ(c->max_age, 2 * 86400);
  ASSERT_EQ(c->tiers.size(), 2u);
  EXPECT_TRUE(c->tiers[1].best_effort);
  EXPECT_FALSE(c->tiers[0].best_effort);
  ASSERT_NE(c->account("a"), nullptr);
  EXPECT_DOUBLE_EQ(c->account("a")->share, 3);
  EXPECT_DOUBLE_EQ(c->account("a")->allocation_core_hours, 1000);
  EXPECT_DOUBLE_EQ(c->account("b")->share, 1);  // default
  ASSERT_EQ(c->pools.size(), 2u);
  EXPECT_EQ(c->pools[0].procs, 16);
  EXPECT_EQ(c->pools[1].procs, 0);
  EXPECT_EQ(c->account_from, AccountFrom::kGroup);
  EXPECT_EQ(c->account_map.at(7), "a");
  EXPECT_EQ(c->default_account, "b");
}

TEST(PolicyConfig, PoolsOfNodesWithMemoryAndGpus) {
  auto c = parse_policy_config(R"(
pools:
  - {name: cluster, nodes: 50, cores_per_node: 48, memory_per_node: 192G}
  - {name: booster, nodes: 4, cores_per_node: 16, memory_per_node: 512000, gpus_per_node: 4}
  - {name: small, procs: 8}
)", "p.yaml");
  ASSERT_TRUE(c.ok()) << c.error();
  ASSERT_EQ(c->pools.size(), 3u);
  EXPECT_EQ(c->pools[0].nodes, 50);
  EXPECT_EQ(c->pools[0].cores_per_node, 48);
  EXPECT_EQ(c->pools[0].memory_per_node, std::int64_t{192} << 30);
  EXPECT_EQ(c->pools[0].gpus_per_node, 0);
  EXPECT_EQ(c->pools[1].memory_per_node, std::int64_t{512000} << 20);  // no unit: megabytes
  EXPECT_EQ(c->pools[1].gpus_per_node, 4);
  EXPECT_EQ(c->pools[2].procs, 8);
  EXPECT_EQ(c->pools[2].nodes, 0);
}

TEST(PolicyConfig, DepthZeroOneAndN) {
  for (int d : {0, 1, 5}) {
    auto c = parse_policy_config("reservation_depth: " + std::to_string(d), "p.yaml");
    ASSERT_TRUE(c.ok()) << c.error();
    EXPECT_EQ(c->reservation_depth, d);
  }
}

TEST(PolicyConfig, ShippedSeedExampleParses) {
  auto c = load_policy_config(YARD_EXAMPLES_DIR "/policy/seed002-tiers.yaml");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->tiers.size(), 7u);
  EXPECT_GT(c->tier("condo")->priority, c->tier("meritorious")->priority);
  EXPECT_GT(c->tier("meritorious")->priority, c->tier("condo-incentive")->priority);
  EXPECT_GT(c->tier("condo-incentive")->priority, c->tier("open-access")->priority);
  EXPECT_TRUE(c->tier("open-access")->best_effort);
  EXPECT_TRUE(c->tier("condo-incentive")->best_effort);
  EXPECT_FALSE(c->tier("startup")->best_effort);
  EXPECT_EQ(c->default_account, "open");
}

struct Bad {
  const char* text;
  const char* message;  // expected substring of the error
};

class PolicyConfigErrors : public ::testing::TestWithParam<Bad> {};

TEST_P(PolicyConfigErrors, NameTheLineAndKey) {
  auto c = parse_policy_config(GetParam().text, "p.yaml");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().find(GetParam().message), std::string::npos) << c.error();
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PolicyConfigErrors,
    ::testing::Values(
        Bad{"reservation_depth: many", "p.yaml:1: reservation_depth: expected a whole number, got 'many'"},
        Bad{"reservation_depth: -2", "p.yaml:1: reservation_depth: expected 0, 1, N or unlimited"},
        Bad{"\nweights:\n  age: high\n", "p.yaml:3: weights.age: expected a number, got 'high'"},
        Bad{"weights: {tier: -1}", "p.yaml:1: weights.tier: must not be negative"},
        Bad{"weights: {colour: 1}", "p.yaml:1: weights.colour: unknown key (accepted: tier, age, fairshare, size)"},
        Bad{"fairshare: {half_life: soon}", "p.yaml:1: fairshare.half_life: invalid duration 'soon'"},
        Bad{"\n\nbogus: 1", "p.yaml:3: bogus: unknown key"},
        Bad{"tiers: {name: a}", "p.yaml:1: tiers: expected a list"},
        Bad{"tiers:\n  - {name: a}\n", "p.yaml:2: tiers[0]: missing 'priority'"},
        Bad{"tiers:\n  - {name: a, priority: 1}\n  - {name: a, priority: 2}\n",
            "p.yaml:3: tiers[1]: duplicate tier 'a'"},
        Bad{"tiers:\n  - {name: a, priority: 1, best_effort: maybe}\n",
            "p.yaml:2: tiers[0].best_effort: expected true or false, got 'maybe'"},
        Bad{"tiers:\n  - {name: a, priority: 1}\naccounts:\n  - {name: x, tier: b}\n",
            "p.yaml:4: accounts[0].tier: unknown tier 'b'"},
        Bad{"tiers:\n  - {name: a, priority: 1}\naccounts:\n  - {name: x}\n",
            "p.yaml:4: accounts[0]: missing 'tier'"},
        Bad{"accounts:\n  - {tier: a}\n", "p.yaml:2: accounts[0]: missing 'name'"},
        Bad{"pools:\n  - {name: c, procs: 0}\n", "p.yaml:2: pools[0].procs: must be at least 1"},
        Bad{"pools:\n  - {name: c, procs: 4, nodes: 2, cores_per_node: 2}\n",
            "p.yaml:2: pools[0].procs: give either procs or nodes and cores_per_node"},
        Bad{"pools:\n  - {name: c, nodes: 2}\n", "p.yaml:2: pools[0]: nodes and cores_per_node go together"},
        Bad{"pools:\n  - {name: c, procs: 4, memory_per_node: lots}\n", "p.yaml:2: pools[0].memory_per_node: "},
        Bad{"pools:\n  - {name: c, procs: 4, gpus_per_node: -1}\n",
            "p.yaml:2: pools[0].gpus_per_node: must be at least 0"},
        Bad{"account_from: project", "p.yaml:1: account_from: expected user, group or queue"},
        Bad{"default_account: nobody", "p.yaml:1: default_account: unknown account 'nobody'"},
        Bad{"account_map: {3: nobody}", "p.yaml:1: account_map.3: unknown account 'nobody'"},
        Bad{"weights: [1, 2", "p.yaml:1: malformed YAML"}));

TEST(PolicyDuration, UnitsAndWalltimes) {
  EXPECT_EQ(*parse_policy_duration("7d"), 7 * 86400);
  EXPECT_EQ(*parse_policy_duration("12h"), 12 * 3600);
  EXPECT_EQ(*parse_policy_duration("30m"), 1800);
  EXPECT_EQ(*parse_policy_duration("45s"), 45);
  EXPECT_EQ(*parse_policy_duration("0"), 0);
  EXPECT_EQ(*parse_policy_duration("1-12:00:00"), 36 * 3600);
  EXPECT_EQ(*parse_policy_duration("90"), 90 * 60);  // Slurm: minutes
  EXPECT_FALSE(parse_policy_duration("7w").ok());
  EXPECT_FALSE(parse_policy_duration("-1d").ok());
  EXPECT_FALSE(parse_policy_duration("unlimited").ok());
}

}  // namespace
}  // namespace yard::sched
