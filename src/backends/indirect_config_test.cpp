// slurm.yaml's settings of the indirect engine, and errors that name the line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "backends/indirect_backend.h"
#include "core/setting_doc.h"

namespace yard {
namespace {

// The documented table (core/setting_doc.h, the reference's) is the reader's: every key
// of it is read (a wrong value is an error about that key, not an unknown one).
TEST(IndirectConfig, EveryDocumentedKeyIsRead) {
  auto dir = std::filesystem::temp_directory_path() / ("yard-indirect-keys-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "c.yaml").string();
  for (const auto& s : kClusterSettings) {
    std::ofstream(path) << s.key << ": [not, a, value]\n";
    auto c = load_indirect_config(path);
    if (!c) {
      EXPECT_EQ(c.error().find("unknown setting"), std::string::npos) << s.key << ": " << c.error();
    }
  }
  std::ofstream(path) << "frobnicate: 1\n";
  auto c = load_indirect_config(path);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().find("(known: " + setting_names(kClusterSettings) + ")"), std::string::npos) << c.error();
  std::filesystem::remove_all(dir);
}

TEST(IndirectConfig, ReadsSettingsAndNamesBadOnes) {
  auto dir = std::filesystem::temp_directory_path() / ("yard-indirect-config-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto path = (dir / "c.yaml").string();
  std::ofstream(path) << "poll_interval: 0.5\ncalls_per_second: 1.5\n";
  auto c = load_indirect_config(path);
  ASSERT_TRUE(c) << c.error();
  EXPECT_DOUBLE_EQ(c->poll_interval_s, 0.5);
  EXPECT_DOUBLE_EQ(c->calls_per_second, 1.5);
  std::ofstream(path) << "poll_interval: 2\npoll_intervall: 3\n";
  auto bad = load_indirect_config(path);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find(":2: unknown setting 'poll_intervall'"), std::string::npos) << bad.error();
  std::ofstream(path) << "lost_after: soon\n";
  auto bad2 = load_indirect_config(path);
  ASSERT_FALSE(bad2);
  EXPECT_NE(bad2.error().find("lost_after"), std::string::npos);
  std::ofstream(path) << "max_queued: 500\nsubmit_rate: 10/min\n";
  auto throttles = load_indirect_config(path);
  ASSERT_TRUE(throttles) << throttles.error();
  EXPECT_EQ(throttles->max_queued, 500);
  EXPECT_DOUBLE_EQ(throttles->submits_per_second, 10.0 / 60);
  std::ofstream(path) << "max_queued: 0\n";
  EXPECT_NE(load_indirect_config(path).error().find(":1: max_queued: expected a number of jobs >= 1, got '0'"),
            std::string::npos);
  std::ofstream(path) << "max_array_size: 5000\n";
  EXPECT_EQ(load_indirect_config(path)->max_array_size, 5000);
  std::ofstream(path) << "max_array_size: many\n";
  EXPECT_NE(load_indirect_config(path).error().find(":1: max_array_size: expected a number of elements >= 1, got 'many'"),
            std::string::npos);
  std::ofstream(path) << "\nsubmit_rate: fast\n";
  EXPECT_NE(load_indirect_config(path).error().find(":2: submit_rate: expected calls per second"), std::string::npos);
  EXPECT_TRUE(load_indirect_config((dir / "absent.yaml").string()));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace yard
