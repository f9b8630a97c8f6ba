// routes.yaml's classes against their queues' limits as the schedulers list them: a class
// above its queue's, or a queue the scheduler does not have, refuses the routes naming the
// line of the queue; a listing that arrives after the routes were read has them checked
// again, the routes before kept; limits no side states are not compared.
#include "routes/queue_limits_check.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "routes/routes_file.h"

namespace yard {
namespace {

namespace fs = std::filesystem;

class QueueLimitsCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("yard-queue-limits-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = (dir_ / "routes.yaml").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& text) { std::ofstream(path_) << text; }
  Routes load(const std::string& text) {
    write(text);
    auto r = load_routes({path_}, [](const std::string& b) { return b == "slurm" || b == "sge"; });
    EXPECT_TRUE(r) << r.error();
    return r ? *r : Routes{};
  }
  QueueListingOf slurm_has(const QueueListing& l) {
    return [&l](const std::string& b) { return b == "slurm" ? &l : nullptr; };
  }
  fs::path dir_;
  std::string path_;
};

constexpr const char* kRoutes =
    "classes:\n"
    "  small: {time: 1:00:00, cpus: 4, mem: 8G}\n"
    "  large: {time: 2-00:00:00, cpus: 64}\n"
    "targets:\n"
    "  slurm:\n"
    "    queues:\n"
    "      small: short\n"
    "      large: long\n"
    "  sge: {queues: {small: all.q}}\n";

QueueListing listing(std::int64_t long_time_s, std::int64_t long_cpus = 0, std::uint64_t short_mem = 0) {
  QueueListing l;
  l.complete = true;
  l.version = 1;
  l.queues["short"] = {3600, 0, short_mem};
  l.queues["long"] = {long_time_s, long_cpus, 0};
  return l;
}

TEST_F(QueueLimitsCheck, ClassesWithinTheirQueuesPassAndUnstatedLimitsAreNotCompared) {
  const Routes r = load(kRoutes);
  const QueueListing l = listing(7 * 86400);  // long: a week, no CPU limit stated
  EXPECT_TRUE(check_queue_limits(r, slurm_has(l)));
  EXPECT_TRUE(check_queue_limits(r, nullptr));  // no listing: nothing checked
  QueueListing unread;                           // version 0: not read yet
  EXPECT_TRUE(check_queue_limits(r, slurm_has(unread)));
}

TEST_F(QueueLimitsCheck, AClassAboveItsQueuesLimitIsRefusedNamingTheLineOfTheQueueAndOfTheClass) {
  const Routes r = load(kRoutes);
  QueueListing l = listing(86400);  // long: a day, class large wants two
  auto s = check_queue_limits(r, slurm_has(l));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error(), path_ + ":8: targets: slurm: queues: large: class large (" + path_ +
                           ":3): its time 2-00:00:00 is above queue long's limit of 1-00:00:00 on slurm");
  l = listing(7 * 86400, 32);
  s = check_queue_limits(r, slurm_has(l));
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("class large (" + path_ + ":3): its 64 CPUs are above queue long's limit of 32 on slurm"),
            std::string::npos)
      << s.error();
  l = listing(7 * 86400, 0, 4ull << 30);
  s = check_queue_limits(r, slurm_has(l));
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find(":7: targets: slurm: queues: small: class small (" + path_ +
                           ":2): its memory 8G is above queue short's limit of 4G on slurm"),
            std::string::npos)
      << s.error();
}

TEST_F(QueueLimitsCheck, AQueueTheSchedulerDoesNotHaveIsRefusedWhenItsListingIsComplete) {
  const Routes r = load(kRoutes);
  QueueListing l = listing(7 * 86400);
  l.queues.erase("long");
  auto s = check_queue_limits(r, slurm_has(l));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error(), path_ + ":8: targets: slurm: queues: large: 'long' is not a queue of slurm's scheduler (its "
                               "queues: short)");
  l.complete = false;  // only the queues asked about and found: an absent one is not judged
  EXPECT_TRUE(check_queue_limits(r, slurm_has(l)));
}

TEST_F(QueueLimitsCheck, ListingsTravelAsJsonForYardRoutesCheck) {
  const QueueListing l = listing(86400, 32, 4ull << 30);
  const QueueListing back = queue_listing_from_json(queue_listing_json(l));
  EXPECT_EQ(back.queues, l.queues);
  EXPECT_TRUE(back.complete);
  EXPECT_GT(back.version, 0u);
  EXPECT_EQ(queue_listing_from_json(nlohmann::json("garbage")).version, 0u);
}

// The daemon's routes: read before the scheduler's listing arrives, checked again when it
// does; the file refused then keeps the routes before in force, and the file mended is taken.
TEST_F(QueueLimitsCheck, RoutesAreCheckedAgainWhenAListingArrivesAndTheQueuesAreAskedFor) {
  write(kRoutes);
  QueueListing l;  // not read yet
  std::vector<std::string> said;
  std::set<std::string> asked;
  RoutesFile file(
      {path_}, [](const std::string& b) { return b == "slurm" || b == "sge"; },
      [&](const std::string& line) { said.push_back(line); }, slurm_has(l),
      [&](const Routes& routes) {
        asked.clear();
        for (auto& [cls, q] : routes.targets.at("slurm").queues) asked.insert(q);
      });
  EXPECT_EQ(file.current().classes.size(), 2u);
  EXPECT_EQ(asked, (std::set<std::string>{"long", "short"}));
  EXPECT_TRUE(file.problem().empty());
  l = listing(86400);  // arrives: long allows a day, class large wants two
  EXPECT_EQ(file.current().classes.size(), 2u);  // the routes read before stay
  EXPECT_NE(file.problem().find("class large"), std::string::npos) << file.problem();
  const auto count = said.size();
  file.current();  // nothing new: nothing said again
  EXPECT_EQ(said.size(), count);
  write("classes:\n  small: {time: 1:00:00}\ntargets:\n  slurm: {queues: {small: short}}\n");
  EXPECT_EQ(file.current().classes.size(), 1u);
  EXPECT_TRUE(file.problem().empty()) << file.problem();
  EXPECT_EQ(asked, (std::set<std::string>{"short"}));
}

}  // namespace
}  // namespace yard
