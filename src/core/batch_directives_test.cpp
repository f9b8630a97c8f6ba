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
  // Line by line too, with their numbers, so each can be parsed on its own.
  ASSERT_EQ(d->lines.size(), 2u);
  EXPECT_EQ(d->lines[0].number, 2);
  EXPECT_EQ(d->lines[0].words, (Words{"-n", "4", "--time=10"}));
  EXPECT_EQ(d->lines[1].number, 5);
  EXPECT_EQ(d->lines[1].words, (Words{"-J", "my job"}));
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

TEST(BatchDirectives, HetjobSeparatesComponents) {
  auto d = read_batch_directives(
      "#!/bin/bash\n"
      "#SBATCH -J het\n"
      "#SBATCH -p cpu -n 2\n"
      "#SBATCH hetjob\n"
      "#SBATCH -p gpu -n 1 --gres=gpu:1\n"
      "#SBATCH packjob -p big\n"
      "sleep 8\n",
      "het.sh");
  ASSERT_TRUE(d.ok()) << d.error();
  EXPECT_EQ(d->words, (Words{"-J", "het", "-p", "cpu", "-n", "2"}));
  ASSERT_EQ(d->components.size(), 2u);
  EXPECT_EQ(d->components[0], (Words{"-p", "gpu", "-n", "1", "--gres=gpu:1"}));
  EXPECT_EQ(d->components[1], (Words{"-p", "big"}));
  ASSERT_EQ(d->lines.size(), 4u);  // the bare "hetjob" line has no words
  EXPECT_EQ(d->lines[2].component, 1u);
  EXPECT_EQ(d->lines[2].number, 5);
  EXPECT_EQ(d->lines[3].component, 2u);
  EXPECT_EQ(d->lines[3].words, (Words{"-p", "big"}));
  // An empty component is refused, naming the line.
  auto e = read_batch_directives("#!/bin/sh\n#SBATCH -n 1\n#SBATCH hetjob\n#SBATCH hetjob\n#SBATCH -n 2\n", "e.sh");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().find("e.sh:4: component 1"), std::string::npos) << e.error();
  e = read_batch_directives("#!/bin/sh\n#SBATCH -n 1\n#SBATCH hetjob\necho\n", "e.sh");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().find("e.sh:3: component 1"), std::string::npos) << e.error();
  EXPECT_FALSE(read_batch_directives("#!/bin/sh\n#SBATCH hetjob\n#SBATCH -n 2\n", "e.sh").ok());
}

}  // namespace yard
