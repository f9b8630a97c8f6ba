// For the Slurm unit tests: the exact text of a captured fixture
// (tests/fixtures/slurm/, whose README says which command printed it), and the parse
// tests' fixture and helpers (slurm_parse_test.cpp, slurm_sacct_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "backends/dialect.h"
#include "backends/slurm/slurm_parse.h"

namespace yard {

inline std::string slurm_fixture(const std::string& name) {
  std::ifstream in(std::filesystem::path(YARD_SLURM_FIXTURES) / name, std::ios::binary);
  EXPECT_TRUE(in) << "missing fixture " << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace slurm_testing {

// sacct prints local time; the tests pin the zone so the numbers are fixed.
class SlurmParse : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("TZ", "UTC", 1);
    ::tzset();
  }
};

inline std::vector<NativeStatus> squeue(const std::string& file) {
  auto r = parse_squeue(slurm_fixture(file));
  EXPECT_TRUE(r.ok()) << file << ": " << (r.ok() ? "" : r.error());
  return r.ok() ? *r : std::vector<NativeStatus>{};
}

inline std::vector<NativeStatus> sacct(const std::string& file) {
  auto r = parse_sacct(slurm_fixture(file));
  EXPECT_TRUE(r.ok()) << file << ": " << (r.ok() ? "" : r.error());
  return r.ok() ? *r : std::vector<NativeStatus>{};
}

inline const NativeStatus* find(const std::vector<NativeStatus>& v, const std::string& id) {
  for (auto& s : v)
    if (s.native_id == id) return &s;
  return nullptr;
}


}  // namespace slurm_testing
}  // namespace yard
