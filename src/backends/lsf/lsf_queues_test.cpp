// LSF's `bqueues -l`: the limits of each queue, as LSF 10.1 prints them (IBM's
// transcripts, OpenLava's printer for the layout of defaults; LSF.md of the stand-in),
// its defaults not taken for limits, and bad values named.
#include "backends/lsf/lsf_queues.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

constexpr const char* kTwoQueues =
    "\n"
    "QUEUE: normal\n"
    "  -- For normal low priority jobs, running only if hosts are lightly loaded.  This is the default queue.\n"
    "\n"
    "PARAMETERS/STATISTICS\n"
    "PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN SSUSP USUSP  RSV\n"
    " 30   20  Open:Active       -    -    -    -     0     0     0     0     0    0\n"
    "Interval for a host to accept two jobs is 0 seconds\n"
    "\n"
    "DEFAULT LIMITS:\n"
    " RUNLIMIT                \n"
    " 60.0 min\n"
    "\n"
    "MAXIMUM LIMITS:\n"
    " RUNLIMIT                 TASKLIMIT               \n"
    " 720.0 min                4\n"
    "\n"
    " MEMLIMIT\n"
    "     16 G \n"
    "\n"
    "SCHEDULING PARAMETERS\n"
    "           r15s   r1m  r15m   ut      pg    io   ls    it    tmp    swp    mem\n"
    " loadSched   -     -     -     -       -     -    -     -     -      -      -  \n"
    " loadStop    -     -     -     -       -     -    -     -     -      -      -  \n"
    "\n"
    "USERS: all\n"
    "HOSTS:  all\n"
    "\n"
    "------------------------------------------------------------------------------\n"
    "\n"
    "QUEUE: small\n"
    "  -- small jobs\n"
    "\n"
    "PARAMETERS/STATISTICS\n"
    "PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN SSUSP USUSP  RSV\n"
    " 40    0  Open:Active       -    -    -    -     0     0     0     0     0    0\n"
    "\n"
    " RUNLIMIT\n"
    " 480.0 min of hostA\n"
    "\n"
    " PROCLIMIT\n"
    " 1 8 48\n"
    "\n"
    " CORELIMIT MEMLIMIT\n"
    "      0 M     3.9 G \n"
    "\n"
    "SCHEDULING PARAMETERS\n"
    "USERS: all\n"
    "\n"
    "QUEUE: free\n"
    "  -- no limits\n";

TEST(LsfQueues, EveryQueuesMaximaAreReadAndItsDefaultsAreNot) {
  auto l = parse_lsf_queues(kTwoQueues);
  ASSERT_TRUE(l) << l.error();
  EXPECT_TRUE(l->complete);
  ASSERT_EQ(l->queues.size(), 3u);
  EXPECT_EQ(l->queues.at("normal"), (QueueLimits{720 * 60, 4, 0}));  // not the default's 60 minutes
  EXPECT_EQ(l->queues.at("small"), (QueueLimits{480 * 60, 48, 0}));
  EXPECT_EQ(l->queues.at("free"), QueueLimits{});
  EXPECT_TRUE(parse_lsf_queues("")->queues.empty());
}

TEST(LsfQueues, ALineItCannotReadIsNamed) {
  auto l = parse_lsf_queues("QUEUE: q\n RUNLIMIT\n forever\n");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error(), "bqueues -l, line 3: RUNLIMIT 'forever': expected minutes, such as 720.0 min");
  l = parse_lsf_queues("QUEUE: q\n TASKLIMIT\n many\n");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error(), "bqueues -l, line 3: TASKLIMIT 'many': expected numbers of tasks");
  l = parse_lsf_queues(" RUNLIMIT\n 60.0 min\n");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error(), "bqueues -l, line 2: limits before any QUEUE: line");
}

}  // namespace
}  // namespace yard
