#include "backends/output_word.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

TEST(OutputWord, QuotesThePathAndExpandsThePaddedIndexFromTheNamedVariable) {
  EXPECT_EQ(output_word("/o/x.out", "SGE_TASK_ID"), "'/o/x.out'");
  EXPECT_EQ(output_word("/o/50%%.out", "SGE_TASK_ID"), "'/o/50%.out'");
  EXPECT_EQ(output_word("/o/a b'$x.out", "SGE_TASK_ID"), "'/o/a b'\\''$x.out'");
  EXPECT_EQ(output_word("/o/%3a", "SGE_TASK_ID"), "'/o/'\"$(printf %03d \"$SGE_TASK_ID\")\"");
  EXPECT_EQ(output_word("/o/%a.out", "YARD_ARRAY_TASK_ID"), "'/o/'\"$(printf %01d \"$YARD_ARRAY_TASK_ID\")\"'.out'");
  EXPECT_EQ(output_word("", "X"), "''");
}

}  // namespace
}  // namespace yard
