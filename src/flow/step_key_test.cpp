// Step keys (step_key.h) and input digests (file_digest.h): what changes a step's result
// changes its key, what does not leaves it alone.
#include "flow/step_key.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "flow/file_digest.h"

namespace yard {
namespace {

Flow chain() {
  Flow f;
  f.env = {{"PATH", "/bin"}, {"TERM", "xterm"}};
  FlowStep a;
  a.name = a.rule = "a";
  a.spec.argv = {"/bin/sh", "-c", "make data"};
  a.spec.workdir = "/w";
  a.inputs = {"/w/raw.txt"};
  a.outputs = {"/w/data"};
  FlowStep b;
  b.name = b.rule = "b";
  b.spec.argv = {"/bin/sh", "-c", "analyse data"};
  b.spec.workdir = "/w";
  b.inputs = {"/w/data"};
  b.needs = {0};
  f.steps = {a, b};
  return f;
}

const std::map<std::string, std::string> kRaw{{"/w/raw.txt", "xxh128:1"}};

TEST(StepKeys, OnlyWhatChangesAResultChangesAKey) {
  const Flow f = chain();
  EXPECT_EQ(external_inputs(f), std::vector<std::string>{"/w/raw.txt"});  // /w/data is made by a
  const auto keys = step_keys(f, kRaw);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].size(), 32u);
  EXPECT_NE(keys[0], keys[1]);
  // Cosmetic: a name, resources, a backend, a log, the environment yard run started in.
  Flow cosmetic = f;
  cosmetic.steps[0].name = "renamed";
  cosmetic.steps[0].spec.res.cpus_per_task = 8;
  cosmetic.steps[0].spec.backend = "slurm";
  cosmetic.steps[0].spec.stdout_path = "/runs/2/a.out";
  cosmetic.env["TERM"] = "dumb";
  EXPECT_EQ(step_keys(cosmetic, kRaw), keys);
  // The input's content: a and, through a's key, b.
  const auto changed = step_keys(f, {{"/w/raw.txt", "xxh128:2"}});
  EXPECT_NE(changed[0], keys[0]);
  EXPECT_NE(changed[1], keys[1]);
  // b's command: b alone.
  Flow edited = f;
  edited.steps[1].spec.argv.back() = "analyse --fast data";
  const auto edited_keys = step_keys(edited, kRaw);
  EXPECT_EQ(edited_keys[0], keys[0]);
  EXPECT_NE(edited_keys[1], keys[1]);
  // A variable the step sets itself (--export), and not one it only inherits.
  Flow exported = f;
  exported.steps[0].own_env = true;
  exported.steps[0].spec.env = f.env;
  EXPECT_EQ(step_keys(exported, kRaw)[0], keys[0]);
  exported.steps[0].spec.env["SEED"] = "7";
  EXPECT_NE(step_keys(exported, kRaw)[0], keys[0]);
}

TEST(FileDigests, ATouchedFileKeepsItsDigestAndAChangedOneIsReadAgain) {
  const std::string dir = ::testing::TempDir() + "file_digest_test-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir + "/d");
  const std::string file = dir + "/in.txt";
  std::ofstream(file) << "same bytes\n";
  std::ofstream(dir + "/d/x") << "1";
  auto first = digest_inputs({file, dir + "/d"}, {});
  ASSERT_TRUE(first) << first.error();
  ASSERT_EQ(first->fresh.size(), 2u);
  const std::string digest = first->by_path[file];
  EXPECT_EQ(digest.rfind("xxh128:", 0), 0u) << digest;
  // Known and unchanged: not read.
  auto second = digest_inputs({file, dir + "/d"}, first->fresh);
  ASSERT_TRUE(second) << second.error();
  EXPECT_TRUE(second->fresh.empty());
  EXPECT_EQ(second->by_path, first->by_path);
  // Touched (a new time), the same bytes: read again, the same digest.
  struct timespec times[2] = {{0, UTIME_NOW}, {1'000'000'000, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, file.c_str(), times, 0), 0);
  auto touched = digest_inputs({file}, {first->fresh[0]});
  ASSERT_TRUE(touched) << touched.error();
  EXPECT_EQ(touched->fresh.size(), 1u);
  EXPECT_EQ(touched->by_path[file], digest);
  // A file inside a directory input rewritten: the directory's digest changes.
  std::ofstream(dir + "/d/x") << "22";
  auto inside = digest_inputs({dir + "/d"}, {first->fresh[1]});
  ASSERT_TRUE(inside) << inside.error();
  EXPECT_EQ(inside->fresh.size(), 1u);
  EXPECT_NE(inside->by_path[dir + "/d"], first->by_path[dir + "/d"]);
  // A missing input is named.
  auto missing = digest_inputs({dir + "/nope"}, {});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find(dir + "/nope"), std::string::npos) << missing.error();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace yard
