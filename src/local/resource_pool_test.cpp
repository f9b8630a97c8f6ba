#include "local/resource_pool.h"

#include <gtest/gtest.h>

namespace yard {

TEST(ResourcePool, ClaimReleaseAndJson) {
  Machine m;
  m.cpus = 4;
  m.mem_bytes = 100;
  m.gpus = 2;
  ResourcePool p(m);
  EXPECT_FALSE(p.could_ever_fit(5, 0, 0));
  EXPECT_FALSE(p.could_ever_fit(1, 101, 0));
  EXPECT_TRUE(p.could_ever_fit(4, 100, 2));
  auto a = p.allocate(3, 60, 1);
  ASSERT_TRUE(a);
  EXPECT_FALSE(p.allocate(1, 50, 0));
  EXPECT_EQ(p.free_cpus(), 1);
  auto back = Allocation::from_json(a->to_json());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->cpus, a->cpus);
  p.release(*back);
  EXPECT_EQ(p.free_cpus(), 4);
  EXPECT_EQ(p.free_mem(), 100u);
  EXPECT_FALSE(Allocation::from_json("{").ok());
}

}  // namespace yard
