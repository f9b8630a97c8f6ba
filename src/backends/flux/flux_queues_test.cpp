// Flux's queues' limits from `flux queue list -n -o '{queue},{limits.timelimit},
// {limits.max.ncores}'` (flux-core 0.65 to 0.72's QueueInfo fields: seconds as Python
// floats, inf for none), and bad lines named.
#include "backends/flux/flux_queues.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

TEST(FluxQueues, NamedQueuesAndTheAnonymousOneAreRead) {
  auto l = parse_flux_queues("batch,43200.0,4\ndebug,inf,inf\n");
  ASSERT_TRUE(l) << l.error();
  EXPECT_TRUE(l->complete);
  EXPECT_EQ(l->queues.at("batch"), (QueueLimits{43200, 4, 0}));
  EXPECT_EQ(l->queues.at("debug"), QueueLimits{});
  l = parse_flux_queues(",3600.0,inf\n");  // a system without named queues
  ASSERT_TRUE(l) << l.error();
  ASSERT_EQ(l->queues.size(), 1u);
  EXPECT_EQ(l->queues.at(""), (QueueLimits{3600, 0, 0}));
}

TEST(FluxQueues, ALineItCannotReadIsNamed) {
  auto l = parse_flux_queues("batch,1h,4\n");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error(), "flux queue list, line 1: time limit '1h': expected seconds or inf");
  l = parse_flux_queues("\nbatch 43200 4\n");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error(), "flux queue list, line 2: expected NAME,TLIMIT,MAXCORES, got 'batch 43200 4'");
  EXPECT_FALSE(parse_flux_queues("batch,inf,many\n"));
  EXPECT_FALSE(parse_flux_queues("batch,nan,4\n"));
}

}  // namespace
}  // namespace yard
