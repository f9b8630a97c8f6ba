#include "backends/slurm/slurm_quote.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backends/slurm/sbatch_word_testing.h"

namespace yard {
namespace {

using testing::sbatch_word;

TEST(SlurmQuote, BashQuote) {
  EXPECT_EQ(bash_quote(""), "''");
  EXPECT_EQ(bash_quote("a b"), "'a b'");
  EXPECT_EQ(bash_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(bash_quote("a\r\nb"), "'a'$'\\r''\nb'");
}

TEST(SlurmQuote, DirectiveValueRoundTripsThroughSbatchsSplitter) {
  for (const std::string& v : std::vector<std::string>{"plain", "a b", "#x", "'", "\"", "\\", "a'b\"c\\d#e f", "\xff\xfe"}) {
    auto d = directive_value(v, "x");
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(sbatch_word(*d), v) << *d;
  }
  EXPECT_FALSE(directive_value("a\nb", "x").ok());
  EXPECT_FALSE(directive_value("a\tb", "x").ok());
}

}  // namespace
}  // namespace yard
