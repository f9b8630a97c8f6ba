#include "core/shell_words.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

using Words = std::vector<std::string>;

TEST(ShellWords, PlainWordsAreSplitAtSpaces) {
  EXPECT_EQ(simple_shell_words("true"), Words{"true"});
  EXPECT_EQ(simple_shell_words("  sleep   1 "), (Words{"sleep", "1"}));
  EXPECT_EQ(simple_shell_words("/opt/sim/bin/run -n 4 --in data/a.txt"),
            (Words{"/opt/sim/bin/run", "-n", "4", "--in", "data/a.txt"}));
}

TEST(ShellWords, AnythingAShellWouldDoMoreWithNeedsTheShell) {
  for (const char* text : {"echo a > out", "a; b", "a && b", "a | b", "x=1 run", "run $HOME", "run ~/x", "run *.txt",
                           "run 'a b'", "run \"a\"", "run a\\ b", "run `date`", "run # comment", "a\nb", "a\tb",
                           "(sub)", "run {1..3}", "run 50%", "! run"})
    EXPECT_FALSE(simple_shell_words(text)) << text;
}

TEST(ShellWords, ABuiltinOrKeywordFirstNeedsTheShell) {
  for (const char* text : {"cd /tmp", "exit 3", "export A", "if", "test -e x", "echo hi", ". env.sh", "exec run"})
    EXPECT_FALSE(simple_shell_words(text)) << text;
  EXPECT_FALSE(simple_shell_words(""));
  EXPECT_FALSE(simple_shell_words("   "));
}

TEST(ShellWords, OnlyAShellsDashCIsUnwrapped) {
  EXPECT_EQ(without_needless_shell({"/bin/sh", "-c", "sleep 1"}), (Words{"sleep", "1"}));
  EXPECT_EQ(without_needless_shell({"/bin/sh", "-c", "sleep 1; true"}), (Words{"/bin/sh", "-c", "sleep 1; true"}));
  EXPECT_EQ(without_needless_shell({"/bin/bash", "-c", "true"}), (Words{"/bin/bash", "-c", "true"}));
  EXPECT_EQ(without_needless_shell({"/bin/sh", "-c", "true", "extra"}), (Words{"/bin/sh", "-c", "true", "extra"}));
  EXPECT_EQ(without_needless_shell({"true"}), Words{"true"});
}

}  // namespace
}  // namespace yard
