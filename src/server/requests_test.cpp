// The daemon's requests, answered without a socket.
#include "server/requests.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "local/machine.h"

namespace yard {
namespace {

// Stores what it is given; nothing runs.
class StoringBackend final : public Backend {
 public:
  explicit StoringBackend(Store& s) : store_(s) {}
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
  std::string name_ = "local";
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

TEST_F(Requests, ASubmissionKeySeenBeforeGetsItsFirstIdsBack) {
  auto d = daemon();
  SubmitRequest r;
  r.spec.argv = {"true"};
  r.key = "once";
  auto first = handle(d, r, 1.0);
  ASSERT_TRUE(first) << first.error();
  auto again = handle(d, r, 2.0);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->ids, first->ids);
  EXPECT_EQ(*store_->count_jobs(), 1);
}

TEST_F(Requests, ADrainingDaemonRefusesNewWorkAsUnavailable) {
  auto d = daemon();
  (void)handle(d, ShutdownRequest{true});
  EXPECT_TRUE(d.draining);
  SubmitRequest r;
  r.spec.argv = {"true"};
  auto refused = handle(d, r, 1.0);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.kind(), ErrorKind::Unavailable);
}

TEST_F(Requests, LinesAreDecodedAnsweredAndMarkedIfTheyChangedSomething) {
  auto d = daemon();
  bool changed = true;
  auto bad = handle_line(d, "{nope", 1.0, changed);
  EXPECT_FALSE(changed);
  EXPECT_NE(bad.find("malformed request"), std::string::npos) << bad;
  auto ping = decode_ping_reply(handle_line(d, R"({"op":"ping"})", 1.0, changed));
  ASSERT_TRUE(ping);
  EXPECT_FALSE(changed);
  EXPECT_EQ(ping->pid, ::getpid());
  EXPECT_EQ(ping->backends.value("running", -1), 0);
  auto unknown = decode_cancel_reply(handle_line(d, R"({"op":"cancel","ids":[99]})", 1.0, changed));
  EXPECT_FALSE(changed);
  EXPECT_EQ(unknown.kind(), ErrorKind::NotFound);
  SubmitRequest r;
  r.spec.argv = {"true"};
  auto ok = decode_submit_reply(handle_line(d, encode_request(r), 1.0, changed));
  ASSERT_TRUE(ok) << ok.error();
  EXPECT_TRUE(changed);
}

}  // namespace
}  // namespace yard
