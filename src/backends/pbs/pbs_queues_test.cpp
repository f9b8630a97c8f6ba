// PBS Pro's and Torque's `qstat -Q -f`, as their sources print it (OpenPBS's qstat.c and
// Torque 6.1's; tests/stand-in-schedulers/PBS.md and TORQUE.md): resources_max read as a
// queue's limits, a queue without them unlimited, bad lines named.
#include "backends/pbs/pbs_queues.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

TEST(PbsQueues, PbsProsAndTorquesQueuesAreReadWithTheirMaxima) {
  const char* pbs =
      "Queue: workq\n"
      "    queue_type = Execution\n"
      "    total_jobs = 0\n"
      "    state_count = Transit:0 Queued:0 Held:0 Waiting:0 Running:0 Exiting:0 Begun:0 \n"
      "    resources_max.mem = 16gb\n"
      "    resources_max.ncpus = 4\n"
      "    resources_max.walltime = 720:00:00\n"
      "    resources_default.walltime = 01:00:00\n"
      "    enabled = True\n"
      "    started = True\n"
      "\n"
      "Queue: free\n"
      "    queue_type = Execution\n"
      "    enabled = True\n"
      "\n";
  auto l = parse_pbs_queues(pbs);
  ASSERT_TRUE(l) << l.error();
  EXPECT_TRUE(l->complete);
  ASSERT_EQ(l->queues.size(), 2u);
  EXPECT_EQ(l->queues.at("workq"), (QueueLimits{720 * 3600, 4, 16ull << 30}));
  EXPECT_EQ(l->queues.at("free"), QueueLimits{});
  const char* torque =
      "Queue: batch\n"
      "    queue_type = Execution\n"
      "    state_count = Transit:0 Queued:0 Held:0 Waiting:0 Running:0 Exiting:0 Complete:0 \n"
      "    resources_max.procct = 8\n"
      "    resources_max.mem = 2048MB\n"
      "    resources_max.walltime = 12:00:00\n"
      "    mtime = 1764230400\n"
      "\n";
  l = parse_pbs_queues(torque);
  ASSERT_TRUE(l) << l.error();
  EXPECT_EQ(l->queues.at("batch"), (QueueLimits{12 * 3600, 8, 2048ull << 20}));
  EXPECT_TRUE(parse_pbs_queues("")->queues.empty());
}

TEST(PbsQueues, ALineItCannotReadIsNamed) {
  auto l = parse_pbs_queues("Queue: q\n    resources_max.mem = 16parsecs\n");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error(), "qstat -Q -f, line 2: resources_max.mem = 16parsecs: expected a size such as 16gb");
  l = parse_pbs_queues("    resources_max.ncpus = 4\n");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error(), "qstat -Q -f, line 1: an attribute before any 'Queue:' line");
  l = parse_pbs_queues("Queue: q\n    resources_max.walltime = soon\n");
  ASSERT_FALSE(l);
  EXPECT_NE(l.error().find("line 2: resources_max.walltime = soon"), std::string::npos) << l.error();
  EXPECT_FALSE(parse_pbs_queues("Queue: q\n    resources_max.mem = 99999999999999999999pb\n"));
}

}  // namespace
}  // namespace yard
