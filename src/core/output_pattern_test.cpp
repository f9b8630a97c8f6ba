#include "core/output_pattern.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

// Array element 3 (job 12) of array 10, as man sbatch's "filename pattern" section and
// slurmd's fname.c expand them for a batch job.
PatternValues element() { return PatternValues{12, "sim", 10, 3, "alice", std::string("node7")}; }

TEST(OutputPattern, EverySlurmLetter) {
  EXPECT_EQ(expand_output_pattern("%A_%a-%j-%J-%N-%n-%s-%t-%u-%x-%%", element()),
            "10_3-12-12-node7-0-batch-0-alice-sim-%");
  // Not an array: %A is the job's own id, %a Slurm's NO_VAL.
  PatternValues plain{42, "demo", 0, std::nullopt, "bob", std::string("h")};
  EXPECT_EQ(expand_output_pattern("%A.%a.%j", plain), "42.4294967294.42");
}

TEST(OutputPattern, ANumberZeroPadsNumericValues) {
  EXPECT_EQ(expand_output_pattern("%3j_%03a.out", element()), "012_003.out");
  EXPECT_EQ(expand_output_pattern("job%4j.out", PatternValues{128, "", 0, std::nullopt, "", {}}), "job0128.out");
  EXPECT_EQ(expand_output_pattern("%2t-%2n-%5A", element()), "00-00-00010");
  // Ignored for text; capped at 10 as in Slurm.
  EXPECT_EQ(expand_output_pattern("%8N-%8u-%8x-%8s", element()), "node7-alice-sim-batch");
  EXPECT_EQ(expand_output_pattern("%20a|%99999999999999999999j", element()), "0000000003|0000000012");
  // Wider than the value: the value whole.
  EXPECT_EQ(expand_output_pattern("%1j", PatternValues{123456, "", 0, std::nullopt, "", {}}), "123456");
}

TEST(OutputPattern, BackslashesTurnExpansionOff) {
  EXPECT_EQ(expand_output_pattern("out\\_%j.txt", element()), "out_%j.txt");
  EXPECT_EQ(expand_output_pattern("a\\\\b-%a", element()), "a\\b-%a");
}

TEST(OutputPattern, UnknownOrIncompleteSequencesAreKept) {
  EXPECT_EQ(expand_output_pattern("%q-%5q-50%", element()), "%q-%5q-50%");
  EXPECT_EQ(expand_output_pattern("end%12", element()), "end%12");
  // An indirect backend's job: the node is its scheduler's choice.
  PatternValues unknown_node = element();
  unknown_node.node.reset();
  EXPECT_EQ(expand_output_pattern("%N-%j", unknown_node), "%N-12");
}

TEST(OpenMode, TheFirstLetterDecidesAsInSbatch) {
  EXPECT_EQ(parse_open_mode("append"), OpenMode::Append);
  EXPECT_EQ(parse_open_mode("A"), OpenMode::Append);
  EXPECT_EQ(parse_open_mode("truncate"), OpenMode::Truncate);
  EXPECT_EQ(parse_open_mode("Trunc"), OpenMode::Truncate);
  EXPECT_EQ(parse_open_mode(""), std::nullopt);
  EXPECT_EQ(parse_open_mode("sometimes"), std::nullopt);
}

}  // namespace
}  // namespace yard

namespace yard {
namespace {

TEST(OutputPattern, ANameIsOneFileNameThatExpandsToItself) {
  EXPECT_EQ(name_in_pattern("sim[3]"), "sim[3]");
  EXPECT_EQ(name_in_pattern("a/b%c"), "a_b%%c");
  PatternValues v;
  EXPECT_EQ(expand_output_pattern(name_in_pattern("50%j/x"), v), "50%j_x");
}

}  // namespace
}  // namespace yard
