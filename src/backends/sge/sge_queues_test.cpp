// Grid Engine's queues' run-time limits, read from `qconf -sq '*'` as a real Grid Engine
// 8.1.9 prints it (tests/fixtures/sge/qconf_sq_all_queues.out: all.q unlimited, short.q
// with a per-host h_rt), and bad lines named.
#include "backends/sge/sge_queues.h"

#include <gtest/gtest.h>

#include "core/file_text.h"

namespace yard {
namespace {

TEST(SgeQueues, EveryQueuesRunTimeLimitIsReadTheLongestOfItsHostsValues) {
  auto text = read_file(std::string(YARD_SGE_FIXTURES) + "/qconf_sq_all_queues.out");
  ASSERT_TRUE(text) << text.error();
  auto l = parse_sge_queues(*text);
  ASSERT_TRUE(l) << l.error();
  EXPECT_TRUE(l->complete);
  ASSERT_EQ(l->queues.size(), 2u);
  EXPECT_EQ(l->queues.at("all.q"), QueueLimits{});
  EXPECT_EQ(l->queues.at("short.q"), (QueueLimits{2 * 3600, 0, 0}));  // 1:00:00, but 2:00:00 on host vm
  l = parse_sge_queues("qname a\nh_rt 5400\nqname b\nh_rt 1:00:00,[x=INFINITY]\nqname c\nh_rt [x=0:30:00],[y=0:45:00]\n");
  ASSERT_TRUE(l) << l.error();
  EXPECT_EQ(l->queues.at("a").time_s, 5400);
  EXPECT_EQ(l->queues.at("b").time_s, 0);  // unlimited on one host: no limit every job meets
  EXPECT_EQ(l->queues.at("c").time_s, 45 * 60);
}

TEST(SgeQueues, ALineItCannotReadIsNamed) {
  auto l = parse_sge_queues("hostlist @allhosts\n");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error(), "qconf -sq, line 1: 'hostlist' before any qname line");
  l = parse_sge_queues("qname a\nh_rt soon\n");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error(), "qconf -sq, line 2: h_rt soon: expected INFINITY or HH:MM:SS");
  EXPECT_FALSE(parse_sge_queues("qname a\nh_rt [x1:00:00]\n"));
  EXPECT_FALSE(parse_sge_queues("qname a\nh_rt 1:2:3:4\n"));
}

}  // namespace
}  // namespace yard
