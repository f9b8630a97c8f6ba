// The helpers the readers of #PBS, #BSUB and Flux directives share: counts, clock times,
// sizes, words, patterns, dependencies, variable lists and the variables warning.
#include "jobtext/directive_common.h"

#include <gtest/gtest.h>

namespace yard::directives {
namespace {

TEST(DirectiveCommon, CountsTimesAndSizes) {
  EXPECT_EQ(count("16"), 16);
  EXPECT_EQ(count("1x"), -1);
  EXPECT_EQ(count("1234567890"), -1);  // more than 9 digits
  EXPECT_EQ(clock_seconds("1:30:00"), 5400);
  EXPECT_EQ(clock_seconds("90"), 90);
  EXPECT_EQ(clock_seconds("1:00.5"), 61);  // a fraction of a second counts as one more
  EXPECT_EQ(clock_seconds("1:2:3:4"), -1);
  EXPECT_EQ(clock_seconds("soon"), -1);
  EXPECT_EQ(sbatch_time(90061), "1-01:01:01");
  EXPECT_EQ(*size_kib("4gb", 1), 4194304);
  EXPECT_EQ(*size_kib("1.5G", 1), 1572864);
  EXPECT_EQ(*size_kib("1000", 1), 1);  // bytes, rounded up to a kibibyte
  EXPECT_EQ(*size_kib("2", 1024.0L * 1024), 2048);
  EXPECT_FALSE(size_kib("4x", 1));
  EXPECT_FALSE(size_kib("0", 1));
  EXPECT_FALSE(size_kib("gb", 1));
  EXPECT_FALSE(size_kib("99999999999999PB", 1));
}

TEST(DirectiveCommon, WordsAsQsubAndBsubSplitThem) {
  EXPECT_EQ(*split_words(" -N 'a b' -o\"c d\"e f\\ g # comment"),
            (std::vector<std::string>{"-N", "a b", "-oc de", "f g"}));
  EXPECT_EQ(*split_words("-o x#y"), (std::vector<std::string>{"-o", "x#y"}));  // # inside a word is a character
  EXPECT_EQ(split_words("-N 'open").error(), "unmatched single quote");
}

TEST(DirectiveCommon, PathsDependenciesAndVariables) {
  EXPECT_EQ(with_patterns("o.$ID.%x", {{"$ID", "%j"}}), "o.%j.%%x");
  EXPECT_EQ(output_file("logs/", "logs/", "%j.out", nullptr), "logs/%j.out");
  EXPECT_EQ(output_file("o", "o", "%j.out", nullptr), "o");
  EXPECT_EQ(*dependency("afterok:12.srv:13,afternotok:14"), "afterok:12:13,afternotok:14");
  EXPECT_EQ(*dependency("after:12"), "after:12");  // PBS's and Flux's: once 12 has started
  // A whole array as PBS and Torque name it, and Torque's kinds on one (what yard's own
  // writers write for a dependency on an array, read back).
  EXPECT_EQ(*dependency("afterok:8,afterany:7[]"), "afterok:8,afterany:7");
  EXPECT_EQ(*dependency("afterokarray:7[].srv"), "afterok:7");
  EXPECT_EQ(*dependency("afterstartarray:7[]"), "after:7");
  EXPECT_FALSE(dependency("beforeokarray:7[]"));
  EXPECT_FALSE(dependency("beforeok:12"));
  EXPECT_FALSE(dependency("afterok"));
  EXPECT_EQ(*variable_list(" A=1, B ,C='x y'"), (std::vector<std::string>{"A=1", "B", "C=x y"}));
  EXPECT_EQ(variable_list("C='x,y'").error(), "a value holding a comma cannot be passed on");
  EXPECT_TRUE(check_array("1-9:2%3"));
  EXPECT_FALSE(check_array("9-x"));
}

TEST(DirectiveCommon, OneWarningForTheSchedulersVariablesTheScriptReads) {
  Messages m("job.sh", "#PBS");
  warn_unset_variables("echo $B ${A} $AB $C\n", {"A", "B"}, "use mine", m);
  // Said only off the scheduler's own backend (TranslatedDirectives::outside_warnings).
  EXPECT_TRUE(m.warnings.empty());
  ASSERT_EQ(m.outside.size(), 1u);
  EXPECT_EQ(m.outside[0], "job.sh: the script reads $A, $B, which yard does not set; use mine");
  Messages none("job.sh", "#PBS");
  warn_unset_variables("echo $AB\n", {"A"}, "use mine", none);
  EXPECT_TRUE(none.outside.empty());
  m.at(3);
  EXPECT_EQ(m.fail("-x: no").message, "job.sh:3: in #PBS directives: -x: no");
}

}  // namespace
}  // namespace yard::directives
