#include "core/batch_directives.h"

#include <gtest/gtest.h>

namespace yard {

using Words = std::vector<std::string>;

TEST(BatchDirectives, ReadsDirectivesUntilFirstCommand) {
  auto d = read_batch_directives(
      "#!/bin/bash\n"
      "#SBATCH -n 4 --time=10 # trailing comment\n"
      "# a comment\n"
      "\n"
      "#SBATCH\t-J \"my job\"\n"
      "#sbatch --mem=1G\n"
      "# SBATCH --mem=2G\n"
      " #SBATCH --mem=3G\n"
      "echo hi\n"
      "#SBATCH --gpus=1\n",
      "job.sh");
  ASSERT_TRUE(d.ok()) << d.error();
  EXPECT_TRUE(d->has_shebang);
  EXPECT_EQ(d->words, (Words{"-n", "4", "--time=10", "-J", "my job"}));
}

TEST(BatchDirectives, ShellLikeWords) {
  EXPECT_EQ(*split_directive_words(" a 'b c' d\\ e f#g"), (Words{"a", "b c", "d e", "f"}));
  EXPECT_EQ(*split_directive_words(" \"x\\\"y\""), (Words{"x\"y"}));
}

TEST(BatchDirectives, ErrorsNameTheLine) {
  auto d = read_batch_directives("#!/bin/sh\n#SBATCH -J 'oops\n", "job.sh");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().find("job.sh:2"), std::string::npos);
  EXPECT_FALSE(read_batch_directives("#!/bin/sh\r\n", "x").ok());
}

}  // namespace yard
