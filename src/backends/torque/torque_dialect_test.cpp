// The Torque dialect's command lines: the whole queue in one qstat, whatever the ids.
#include "backends/torque/torque_dialect.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

TEST(TorqueDialect, OneQstatOfTheWholeQueue) {
  TorqueDialect d({});
  EXPECT_EQ(d.poll_argv({"1", "2[3]"}), (std::vector<std::string>{"qstat", "-x", "-t"}));
  EXPECT_EQ(d.history_argv({"1"}, 0), d.poll_argv({}));
  EXPECT_EQ(d.find_argv(), d.poll_argv({}));
  EXPECT_EQ(d.cancel_argv({"4", "5[2]"}), (std::vector<std::string>{"qdel", "4", "5[2]"}));
  EXPECT_EQ(d.submit_argv("/s/x.sh"), (std::vector<std::string>{"qsub", "/s/x.sh"}));
  EXPECT_EQ(*d.parse_submit("142[].torque01.bcgsc.ca\n"), "142");
  EXPECT_EQ(d.element_id("12", 3, 2), "12[3]");
  EXPECT_FALSE(d.expresses(DependencyKind::AfterCorr));
  // A subjob's name: its array's, then "-INDEX".
  EXPECT_EQ(*d.uid_from_native_name(d.native_name(std::string("yd0123456789abcdef"), "sim") + "-19"), std::string("yd0123456789abcdef"));
}

}  // namespace
}  // namespace yard
