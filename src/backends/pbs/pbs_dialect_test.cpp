// The PBS Pro dialect's command lines: one qstat for every tracked job, an array once
// with its subjobs, explicit ids always.
#include "backends/pbs/pbs_dialect.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

TEST(PbsDialect, OneQstatForEveryJobAndEachArrayOnce) {
  PbsDialect d({});
  EXPECT_EQ(d.poll_argv({"1", "2[3]", "2[4]", "5"}),
            (std::vector<std::string>{"qstat", "-x", "-f", "-F", "json", "-t", "1", "2[]", "5"}));
  EXPECT_EQ(d.history_argv({"1"}, 0), d.poll_argv({"1"}));
  EXPECT_EQ(d.find_argv(), (std::vector<std::string>{"qstat", "-x", "-f", "-F", "json"}));
  EXPECT_EQ(d.cancel_argv({"4", "5[2]"}), (std::vector<std::string>{"qdel", "4", "5[2]"}));
  EXPECT_EQ(d.submit_argv("/s/x.sh"), (std::vector<std::string>{"qsub", "/s/x.sh"}));
  EXPECT_EQ(d.element_id("12", 3, 2), "12[3]");
  EXPECT_TRUE(d.expresses(DependencyKind::AfterOk));
  EXPECT_FALSE(d.expresses(DependencyKind::AfterCorr));
}

TEST(PbsDialect, PassingTroublesAreRetriedRefusalsAreNot) {
  PbsDialect d({});
  EXPECT_TRUE(d.transient_failure(162, "Connection refused\nqsub: cannot connect to server s (errno=15010)\n"));
  EXPECT_TRUE(d.transient_failure(171, "qsub: Invalid credential\n"));
  EXPECT_TRUE(d.transient_failure(1, "pbs_connect: Connection timed out\n"));
  EXPECT_FALSE(d.transient_failure(170, "qsub: Unknown queue\n"));
  EXPECT_FALSE(d.transient_failure(2, "qsub: illegal -l value\n"));
  EXPECT_FALSE(d.transient_failure(0, ""));
  EXPECT_EQ(*d.uid_from_native_name(d.native_name("yd0123456789abcdef", "x y")), "yd0123456789abcdef");
}

}  // namespace
}  // namespace yard
