// For the Slurm unit tests: the exact text of a captured fixture
// (tests/fixtures/slurm/, whose README says which command printed it).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace yard {

inline std::string slurm_fixture(const std::string& name) {
  std::ifstream in(std::filesystem::path(YARD_SLURM_FIXTURES) / name, std::ios::binary);
  EXPECT_TRUE(in) << "missing fixture " << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace yard
