// Slurm's partitions' limits, read from `scontrol show partition --oneliner` as the real
// Slurm 22.05 prints it (the test cluster's `cpu`, unlimited, and `gpu` after `scontrol
// update MaxTime=1-02:00:00 MaxNodes=1 MaxMemPerNode=2048`), and bad lines named.
#include "backends/slurm/slurm_partitions.h"

#include <gtest/gtest.h>

#include "backends/slurm/fixtures_for_tests.h"

namespace yard {
namespace {

TEST(SlurmPartitions, EveryPartitionsLimitsAreReadAndUnlimitedStatesNone) {
  auto l = parse_slurm_partitions(slurm_fixture("scontrol_show_partition_oneliner.txt"));
  ASSERT_TRUE(l) << l.error();
  EXPECT_TRUE(l->complete);
  ASSERT_EQ(l->queues.size(), 2u);
  EXPECT_EQ(l->queues.at("cpu"), (QueueLimits{0, 32, 0}));  // only its CPUs bound a job
  EXPECT_EQ(l->queues.at("gpu"), (QueueLimits{26 * 3600, 8, 2048ull << 20}));
}

TEST(SlurmPartitions, NodesAndMemoryPerCpuBoundAJob) {
  auto l = parse_slurm_partitions(
      "PartitionName=p MaxNodes=2 MaxTime=30:00 MaxCPUsPerNode=4 TotalCPUs=64 TotalNodes=4 MaxMemPerNode=UNLIMITED "
      "MaxMemPerCPU=1000\n\n");
  ASSERT_TRUE(l) << l.error();
  EXPECT_EQ(l->queues.at("p"), (QueueLimits{1800, 8, 8000ull << 20}));
  EXPECT_TRUE(parse_slurm_partitions("")->queues.empty());
}

TEST(SlurmPartitions, ALineItCannotReadIsNamed) {
  auto l = parse_slurm_partitions("PartitionName=a MaxTime=UNLIMITED\nMaxTime=1:00:00\n");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error(), "scontrol show partition, line 2: no PartitionName=");
  l = parse_slurm_partitions("PartitionName=a MaxTime=soon\n");
  ASSERT_FALSE(l);
  EXPECT_NE(l.error().find("line 1: MaxTime=soon: "), std::string::npos) << l.error();
  l = parse_slurm_partitions("PartitionName=a TotalCPUs=-3\n");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error(), "scontrol show partition, line 1: TotalCPUs=-3: expected a number or UNLIMITED");
}

}  // namespace
}  // namespace yard
