// Test fixture: writes a slurm.yaml in a private directory and loads it as the daemon does.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "backends/indirect_backend.h"

namespace yard {

class SlurmYamlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* t = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("yard-" + std::string(t->test_suite_name()) + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "slurm.yaml").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  Result<IndirectConfig> load(const std::string& yaml) {
    std::ofstream(path_) << yaml;
    return load_indirect_config(path_);
  }
  std::filesystem::path dir_;
  std::string path_;
};

}  // namespace yard
