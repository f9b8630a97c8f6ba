#include "cli/submit_options.h"

#include <gtest/gtest.h>

#include <fstream>

namespace yard {
namespace {

TEST(SubmitOptions, CommandLineWinsOverDirectives) {
  std::string path = ::testing::TempDir() + "submit_options_test.sh";
  std::ofstream(path) << "#!/bin/sh\n#SBATCH -n 4 -J fromscript --time=5\n#SBATCH --mem=1G\necho hi\n";
  bool json = false, help = false;
  auto f = parse_submit_args({"-J", "fromcli", path, "arg1"}, json, help);
  ASSERT_TRUE(f.ok()) << f.error();
  EXPECT_EQ(f->name, "fromcli");
  EXPECT_EQ(f->ntasks, 4);
  auto spec = make_spec(*f, {});
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_EQ(spec->res.walltime_s, 300);
  EXPECT_EQ(spec->res.mem_bytes, 1ULL << 30);
  EXPECT_EQ(spec->argv, (std::vector<std::string>{"arg1"}));
  EXPECT_NE(spec->script.find("echo hi"), std::string::npos);
}

TEST(SubmitOptions, BadValuesNameTheFlagAndValue) {
  bool json = false, help = false;
  auto f = parse_submit_args({"--mem", "12XB"}, json, help);
  ASSERT_TRUE(f.ok());
  auto s = make_spec(*f, {"/bin/true"});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("--mem"), std::string::npos);
  EXPECT_NE(s.error().find("12XB"), std::string::npos);
  f = parse_submit_args({"-t", "1:99:00"}, json, help);
  EXPECT_FALSE(make_spec(*f, {"/bin/true"}).ok());
  f = parse_submit_args({"-c", "0"}, json, help);
  EXPECT_FALSE(make_spec(*f, {"/bin/true"}).ok());
  EXPECT_FALSE(parse_submit_args({"--no-such-flag"}, json, help).ok());
}

TEST(SubmitOptions, ExportLists) {
  ::setenv("YARD_TEST_VAR", "v1", 1);
  auto e = export_environment("NONE,FOO=bar,YARD_TEST_VAR");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->at("FOO"), "bar");
  EXPECT_EQ(e->at("YARD_TEST_VAR"), "v1");
  EXPECT_EQ(e->count("YARD_NOT_SET"), 0u);
  EXPECT_EQ(export_environment("ALL")->at("YARD_TEST_VAR"), "v1");
}

}  // namespace
}  // namespace yard
