// routes.yaml's classes against Grid Engine's own queues (run as root: only a manager adds
// a queue). The test adds a cluster queue with a run-time limit and no host (no job can
// land in it, so the other tests' jobs are not touched) and removes it at the end: a class
// above its h_rt is refused naming the line, and a class within it is taken.
#include "sge_world.h"

namespace yard::test {
namespace {

class SgeQueueWorld : public SgeWorld {
 protected:
  void TearDown() override {
    sh("qconf -dq yard-short.q >/dev/null 2>&1");
    SgeWorld::TearDown();
  }
};

TEST_F(SgeQueueWorld, AClassAboveItsQueuesRunTimeLimitIsRefusedNamingTheLine) {
  // The queue: all.q's configuration, renamed, without hosts, at most an hour.
  ASSERT_EQ(sh("qconf -sq all.q | sed -e 's/^qname .*/qname yard-short.q/' -e 's/^hostlist .*/hostlist NONE/' "
               "-e 's/^h_rt .*/h_rt 01:00:00/' > " + dir_ + "/short.q && qconf -Aq " + dir_ + "/short.q >/dev/null && echo ok"),
            "ok\n");
  const std::string file = dir_ + "/config/switchyard/routes.yaml";
  write("config/switchyard/routes.yaml",
        "classes:\n  small: {time: 30:00}\n  long: {time: 2:00:00}\ntargets:\n  sge:\n    queues:\n"
        "      small: yard-short.q\n      long: yard-short.q\n");
  // The routes are taken before Grid Engine's listing arrives, and refused once it has.
  const std::string why = file + ":8: targets: sge: queues: long: class long (" + file +
                          ":3): its time 02:00:00 is above queue yard-short.q's limit of 01:00:00 on sge";
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
  // Mended: the class fits, the routes are taken, the queue's limit is shown.
  write("config/switchyard/routes.yaml",
        "classes:\n  small: {time: 30:00}\ntargets:\n  sge: {queues: {small: yard-short.q}}\n");
  routes = nlohmann::json::parse(yard({"routes", "--json"}).out);
  EXPECT_EQ(routes["problem"], "") << routes.dump(2);
  Output table = yard({"routes"});
  EXPECT_NE(table.out.find("sge:yard-short.q     01:00:00     -        -"), std::string::npos) << table.out;
}

}  // namespace
}  // namespace yard::test

namespace yard::test {
namespace {

// An array above Grid Engine's max_aj_tasks (read from `qconf -sconf` once the backend is
// used: 75000, its default) is refused at submission, exit 2, nothing stored.
TEST_F(SgeWorld, AnArrayAboveGridEnginesMaxAjTasksIsRefusedAtSubmission) {
  long first = sge_submit({"-o", "/dev/null", "--", "true"});
  EXPECT_EQ(wait({first}), 0) << diag();
  const std::string why = "--array: 75001 elements are more than backend sge takes in one array, 75000 (sge's configuration)";
  Output o;
  ASSERT_TRUE(wait_until(
      [&] {
        o = yard({"submit", "--test-only", "--backend", "sge", "-a", "1-75001", "--", "true"});
        return o.err.find(why) != std::string::npos;
      },
      30))
      << o.err;
  o = yard({"submit", "--backend", "sge", "-a", "1-75001", "--", "true"});
  EXPECT_EQ(o.rc, 2) << o.out;
  EXPECT_NE(o.err.find(why), std::string::npos) << o.err;
  EXPECT_EQ(status().size(), 1u);
}

}  // namespace
}  // namespace yard::test
