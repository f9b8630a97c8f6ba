#include "backends/output_paths.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

JobSpec spec_with(const std::string& out) {
  JobSpec s;
  s.name = "sim";
  s.workdir = "/w";
  s.stdout_path = out;
  return s;
}

TEST(OutputPaths, ArrayIndexWidthsGoToTheSchedulerAndToTheRecordedPaths) {
  auto p = output_paths(spec_with("o_%A_%3a_%j.txt"), 40, true, "bob");
  EXPECT_EQ(p.native_out, "/w/o_40_%3a_40_%a.txt");
  EXPECT_EQ(member_path(p.out_template, 7), "/w/o_40_007_40_7.txt");
  p = output_paths(spec_with("o_%a.txt"), 40, true, "bob");
  EXPECT_EQ(p.native_out, "/w/o_%a.txt");
  EXPECT_EQ(member_path(p.out_template, 12), "/w/o_12.txt");
}

TEST(OutputPaths, YardExpandsWhatItKnows) {
  auto p = output_paths(spec_with("%x-%5j-%s-%%.out"), 42, false, "bob");
  EXPECT_EQ(p.native_out, "/w/sim-00042-batch-%%.out");
  EXPECT_EQ(member_path(p.out_template, std::nullopt), "/w/sim-00042-batch-%.out");
}

}  // namespace
}  // namespace yard
