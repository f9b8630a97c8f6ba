// The fixture of the requests' tests: a daemon's state over a store of its own and two
// backends that store what they are given and run nothing ("local" and "other").
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <optional>

#include "local/machine.h"
#include "server/requests.h"

namespace yard::testing_requests {

// Stores what it is given; nothing runs.
class StoringBackend final : public Backend {
 public:
  explicit StoringBackend(Store& s, std::string name = "local") : store_(s), name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  Status recover(double) override { return {}; }
  Result<std::vector<std::int64_t>> submit(JobSpec spec, double now) override { return store_.insert_jobs(spec, now); }
  Result<std::vector<std::int64_t>> cancel(const std::vector<std::int64_t>&, double) override {
    return std::vector<std::int64_t>{};
  }
  void step(double, bool) override {}
  nlohmann::json describe() const override { return {{"running", 0}}; }

 private:
  Store& store_;
  std::string name_;
};

class Requests : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("yard-requests-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    auto s = Store::open((dir_ / "store.db").string());
    ASSERT_TRUE(s) << s.error();
    store_.emplace(std::move(*s));
    BackendRegistry r;
    r.add("local", [](const BackendContext& c) -> Result<std::unique_ptr<Backend>> {
      return std::unique_ptr<Backend>(std::make_unique<StoringBackend>(c.store));
    });
    r.add("other", [](const BackendContext& c) -> Result<std::unique_ptr<Backend>> {
      return std::unique_ptr<Backend>(std::make_unique<StoringBackend>(c.store, "other"));
    });
    Machine m;
    auto b = Backends::open(r, BackendContext{*store_, dir_.string(), dir_.string(), "", "me", m});
    ASSERT_TRUE(b) << b.error();
    backends_.emplace(std::move(*b));
    paths_.socket = "/sock";
    paths_.store = "/db";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  DaemonState daemon() { return DaemonState{*store_, *backends_, paths_}; }

  std::filesystem::path dir_;
  std::optional<Store> store_;
  std::optional<Backends> backends_;
  Paths paths_;
};

}  // namespace yard::testing_requests
