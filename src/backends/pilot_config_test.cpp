// slurm.yaml's `allocation: pilot` and `pilot:` map.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "backends/indirect_backend.h"
#include "backends/slurm_yaml_fixture.h"

namespace yard {
namespace {

class PilotConfig : public SlurmYamlTest {};

TEST_F(PilotConfig, ReadsThePilotMap) {
  auto c = load("allocation: pilot\npilot:\n  partition: cpu\n  nodes: 2\n  cpus: 8\n  mem: 4G\n  gpus: 1\n"
                "  time: \"1:00:00\"\n  account: proj\n  qos: high\n");
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->allocation, "pilot");
  EXPECT_EQ(c->pilot.partition, "cpu");
  EXPECT_EQ(c->pilot.nodes, 2);
  EXPECT_EQ(c->pilot.cpus, 8);
  EXPECT_EQ(c->pilot.mem_bytes, 4ull << 30);
  EXPECT_EQ(c->pilot.gpus, 1);
  EXPECT_EQ(c->pilot.walltime_s, 3600);
  EXPECT_EQ(c->pilot.account, "proj");
  EXPECT_EQ(c->pilot.qos, "high");
}

TEST_F(PilotConfig, BadPilotSettingsAreNamed) {
  auto none = load("allocation: pilot\n");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().find("allocation: pilot needs a pilot: map"), std::string::npos) << none.error();
  auto orphan = load("allocation: 12\npilot: {cpus: 2}\n");
  ASSERT_FALSE(orphan);
  EXPECT_NE(orphan.error().find("pilot: is only used with allocation: pilot"), std::string::npos) << orphan.error();
  auto cpus = load("allocation: pilot\npilot:\n  cpus: many\n");
  ASSERT_FALSE(cpus);
  EXPECT_NE(cpus.error().find(":3: pilot: cpus: expected a whole number >= 1, got 'many'"), std::string::npos)
      << cpus.error();
  auto key = load("allocation: pilot\npilot:\n  partiton: cpu\n");
  ASSERT_FALSE(key);
  EXPECT_NE(key.error().find(":3: pilot: unknown key 'partiton'"), std::string::npos) << key.error();
  auto fewer = load("allocation: pilot\npilot: {nodes: 2, cpus: 1}\n");
  ASSERT_FALSE(fewer);
  EXPECT_NE(fewer.error().find("cpus (1) must be at least nodes (2)"), std::string::npos) << fewer.error();
  auto word = load("allocation: mine\n");
  ASSERT_FALSE(word);
  EXPECT_NE(word.error().find("expected a job id (digits) or 'pilot', got 'mine'"), std::string::npos);
}

}  // namespace
}  // namespace yard
