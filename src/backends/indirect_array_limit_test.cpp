// On a scripted scheduler (indirect_testing.h): an array above the scheduler's limit is
// refused at submission, naming the limit and where it comes from: the scheduler's
// default until its configuration is read (once, at the start), then the configuration's,
// and max_array_size in the settings file over both; a limit on indices (Slurm's) bounds
// the highest index, not the count.
#include "backends/indirect_testing.h"

namespace yard {
namespace {

using namespace indirect_testing;  // NOLINT: the bench of this test

class IndirectArrayLimit : public IndirectTest {
 protected:
  JobSpec array_of(const std::string& indices) {
    JobSpec s = spec("array");
    s.array = *parse_array_spec(indices);
    return s;
  }
};

TEST_F(IndirectArrayLimit, ASchedulersDefaultRefusesALargerArray) {
  dialect_.array_default = 4;  // and no configuration to read
  make_backend();
  EXPECT_EQ(backend_->max_array_size(), 4);
  auto r = backend_->check(array_of("1-5"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "--array: 5 elements are more than backend fake takes in one array, 4 (fake's default); split it");
  EXPECT_TRUE(backend_->check(array_of("1-4")));
}

TEST_F(IndirectArrayLimit, TheConfigurationIsReadOnceTheBackendIsUsedThenItsLimitHolds) {
  dialect_.array_default = 4;
  dialect_.reads_array_limit = true;
  make_backend();
  step();
  EXPECT_EQ(posted("fconf"), 0);  // an idle backend runs nothing
  EXPECT_EQ(backend_->max_array_size(), 4);  // what clients split at meanwhile
  EXPECT_TRUE(backend_->check(array_of("1-5")));  // not read yet: the scheduler judges
  submit(spec());
  step();
  ASSERT_EQ(posted("fconf"), 1);
  answer_to("fconf", "max 10\n");
  step();
  EXPECT_EQ(backend_->max_array_size(), 10);
  EXPECT_TRUE(backend_->check(array_of("1-5")));
  auto r = backend_->check(array_of("1-11"));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("10 (fake's configuration)"), std::string::npos) << r.error();
  now_ += 3600;
  step();
  EXPECT_EQ(posted("fconf"), 0);  // read once
}

TEST_F(IndirectArrayLimit, TheSettingsFilesLimitWinsAndALimitOnIndicesBoundsTheHighest) {
  dialect_.array_default = 1001;
  dialect_.reads_array_limit = true;
  dialect_.limit_on_indices = true;
  config_.max_array_size = 100;
  make_backend();
  step();
  EXPECT_EQ(posted("fconf"), 0);  // not read: the settings file says it
  auto r = backend_->check(array_of("5,100"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "--array: index 100 is above the highest backend fake takes, 99 (max_array_size in fake.yaml: 100)");
  EXPECT_TRUE(backend_->check(array_of("0-99")));
}

TEST_F(IndirectArrayLimit, AConfigurationItCannotReadLeavesTheDefaultForClientsAndRefusesNothing) {
  dialect_.array_default = 4;
  dialect_.reads_array_limit = true;
  make_backend();
  submit(spec());
  step();
  answer_to("fconf", "garbage\n");
  step();
  EXPECT_EQ(backend_->max_array_size(), 4);
  EXPECT_TRUE(backend_->check(array_of("1-5")));
  EXPECT_EQ(backend_->down_reason(), "");
}

}  // namespace
}  // namespace yard
