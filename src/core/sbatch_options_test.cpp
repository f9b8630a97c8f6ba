// sbatch's options that yard has no flag for, read as sbatch's getopt reads them.
#include "core/sbatch_options.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

using W = std::vector<std::string>;
using S = SbatchSettings;

// A few of yard's own flags, as the CLI gives them.
const std::vector<KnownFlag> kYard = {{"ntasks", 'n', true},      {"mem", '\0', true},  {"mem-per-cpu", '\0', true},
                                      {"time", 't', true},        {"job-name", 'J', true}, {"requeue", '\0', false},
                                      {"test-only", '\0', false}, {"output", 'o', true}};

SbatchWords take(const W& words) {
  auto r = take_sbatch_options(words, kYard);
  EXPECT_TRUE(r) << r.error();
  return r ? *r : SbatchWords{};
}

std::string refusal(const W& words) {
  auto r = take_sbatch_options(words, kYard);
  EXPECT_FALSE(r);
  return r ? "" : r.error();
}

TEST(SbatchOptions, EveryFormGetoptTakes) {
  auto t = take({"--mail-type=END,FAIL", "--mail-user", "me@x.org", "-n", "4", "-Cgpu", "-x", "node1",
                 "--exclusive", "--requeue", "-vvv", "--parsable", "-t2:00", "job.sh", "--mail-type", "x"});
  EXPECT_EQ(t.rest, (W{"-n", "4", "--requeue", "-t2:00", "job.sh", "--mail-type", "x"}));
  EXPECT_EQ(t.options, (S{{"mail-type", "END,FAIL"}, {"mail-user", "me@x.org"}, {"constraint", "gpu"},
                          {"exclude", "node1"}, {"exclusive", ""}}));
  // An optional value only with '=': the next word is the script.
  t = take({"--exclusive=user", "--get-user-env", "job.sh"});
  EXPECT_EQ(t.options, (S{{"exclusive", "user"}, {"get-user-env", ""}}));
  EXPECT_EQ(t.rest, (W{"job.sh"}));
  // ':' separates the components of a heterogeneous job; options go on after it.
  t = take({"-n", "1", ":", "--constraint", "big", "-n", "2"});
  EXPECT_EQ(t.rest, (W{"-n", "1", ":", "-n", "2"}));
  EXPECT_EQ(t.options, (S{{"constraint", "big"}}));
}

TEST(SbatchOptions, AbbreviationsOfEveryLongNameAreSpelledOut) {
  auto t = take({"--mail-t", "END", "--job-n=x", "--mem-per-c", "1G", "--ntasks-per-n=4", "--test", "job.sh"});
  EXPECT_EQ(t.rest, (W{"--job-name=x", "--mem-per-cpu", "1G", "--test-only", "job.sh"}));
  EXPECT_EQ(t.options, (S{{"mail-type", "END"}, {"ntasks-per-node", "4"}}));
  // An exact name wins over the longer ones it begins.
  EXPECT_EQ(take({"--mem", "1G"}).rest, (W{"--mem", "1G"}));
}

TEST(SbatchOptions, WhatSbatchRefusesInItsOwnWords) {
  EXPECT_EQ(refusal({"--frobnicate", "1"}), "unrecognized option '--frobnicate'");
  EXPECT_EQ(refusal({"--mem-per", "1G"}), "option '--mem-per' is ambiguous; possibilities: '--mem-per-cpu' '--mem-per-gpu'");
  EXPECT_EQ(refusal({"--mail-type"}), "option '--mail-type' requires an argument");
  EXPECT_EQ(refusal({"--contiguous=yes"}), "option '--contiguous' doesn't allow an argument");
  EXPECT_EQ(refusal({"-z"}), "invalid option -- 'z'");
  EXPECT_EQ(refusal({"-C"}), "option requires an argument -- 'C'");
}

TEST(SbatchOptions, TheTableKnowsWhatEachWouldChange) {
  EXPECT_EQ(find_sbatch_option("begin")->use, SbatchUse::Refuse);
  EXPECT_EQ(find_sbatch_option("hold")->short_name, 'H');
  EXPECT_EQ(find_sbatch_option("mail-type")->use, SbatchUse::Pass);
  EXPECT_EQ(find_sbatch_option("verbose")->use, SbatchUse::Client);
  EXPECT_EQ(find_sbatch_option("mem"), nullptr);  // yard's own flag
  for (auto& o : sbatch_options()) EXPECT_EQ(find_sbatch_option(o.long_name), &o);
}

}  // namespace
}  // namespace yard
