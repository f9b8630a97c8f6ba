// routes.yaml's classes against the limits the scheduler lists for its queues, read by the
// daemon from the scheduler's own listing (qstat -Q -f, bqueues -l, flux queue list): a
// class above its queue's run-time limit is refused naming the line, the routes before
// kept; mended, it is taken and `yard routes` shows the queue's limit.
#include <cstdio>

#include "lifecycle_world.h"

namespace yard::test {
namespace {

// Seconds as yard writes a time: [D-]HH:MM:SS.
std::string walltime(std::int64_t s) {
  char buf[48];
  if (s >= 86400)
    std::snprintf(buf, sizeof buf, "%lld-%02lld:%02lld:%02lld", static_cast<long long>(s / 86400),
                  static_cast<long long>(s % 86400 / 3600), static_cast<long long>(s % 3600 / 60),
                  static_cast<long long>(s % 60));
  else
    std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                  static_cast<long long>(s % 3600 / 60), static_cast<long long>(s % 60));
  return buf;
}

TEST_P(LifeCycleWorld, AClassAboveItsQueuesListedTimeLimitIsRefusedNamingTheLine) {
  ASSERT_FALSE(s().limited_queue.empty()) << "this suite's scheduler names no queue with limits";
  const std::string& queue = s().limited_queue;
  const std::string file = dir_ + "/config/switchyard/routes.yaml";
  const std::int64_t limit = s().queue_time_limit_s;
  write("config/switchyard/routes.yaml", "classes:\n  small: {time: 30:00}\n  long: {time: " +
                                             walltime(limit + 3600) + "}\ntargets:\n  " + s().backend +
                                             ":\n    queues:\n      small: " + queue + "\n      long: " + queue + "\n");
  const std::string why = file + ":8: targets: " + s().backend + ": queues: long: class long (" + file +
                          ":3): its time " + walltime(limit + 3600) + " is above queue " + queue +
                          "'s limit of " + walltime(limit) + " on " + s().backend;
  nlohmann::json routes;
  ASSERT_TRUE(wait_until(
      [&] {
        routes = nlohmann::json::parse(yard({"routes", "--json"}).out);
        return routes["problem"] == why;
      },
      30))
      << routes.dump(2) << diag();
  Output check = yard({"routes", "check", file});
  EXPECT_EQ(check.rc, 2);
  EXPECT_NE(check.err.find(why), std::string::npos) << check.err;
  write("config/switchyard/routes.yaml", "classes:\n  small: {time: 30:00}\ntargets:\n  " + s().backend +
                                             ": {queues: {small: " + queue + "}}\n");
  routes = nlohmann::json::parse(yard({"routes", "--json"}).out);
  EXPECT_EQ(routes["problem"], "") << routes.dump(2);
  const std::string row = s().backend + ":" + queue;
  Output table = yard({"routes"});
  EXPECT_NE(table.out.find(row + std::string(row.size() < 20 ? 20 - row.size() : 0, ' ') + " " + walltime(limit)),
            std::string::npos)
      << table.out;
}

}  // namespace
}  // namespace yard::test
