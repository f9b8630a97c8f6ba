// An OAR job read as an allocation for direct mode: its cores and their hosts from what
// a real OAR 2.5.9 printed (tests/fixtures/oar), and what is refused with its place.
#include "backends/oar/oar_allocation.h"

#include <gtest/gtest.h>

#include "backends/oar/oar_fixtures_for_tests.h"
#include "core/text.h"

namespace yard {
namespace {

TEST(OarAllocation, ReadsTheCoresOfARunningJobFromOarstat) {
  auto a = parse_oar_resources(oar_fixture("oarstat_p_running.out"), "2", "");
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->slots, (std::vector<std::string>{"localhost", "localhost"}));
  EXPECT_EQ(a->nodes(), 1);
  EXPECT_EQ(a->gpus, 0);
  EXPECT_EQ(a->job_id, "2");
}

// Inside the job, its resource file says the same as oarstat does from outside, and as
// many cores as its OAR_NODEFILE lists.
TEST(OarAllocation, TheJobsOwnResourceFileMatchesItsNodeFile) {
  auto a = parse_oar_resources(oar_fixture("job_resources_file.out"), "2", "");
  ASSERT_TRUE(a) << a.error();
  std::vector<std::string> nodefile;
  const std::string text = oar_fixture("job_nodefile.out");
  for (auto line : split(text, '\n'))
    if (!line.empty()) nodefile.emplace_back(line);
  EXPECT_EQ(a->slots, nodefile);
}

// Two hosts listed interleaved: each host's cores together, in the order OAR first names
// the hosts; GPUs counted once per host and value of the site's GPU property.
TEST(OarAllocation, GroupsCoresByHostAndCountsGpus) {
  const std::string text =
      " network_address = 'n2' , core = '1' , gpudevice = '0'\n"
      " core = '2' , network_address = 'n1' , gpudevice = '0'\n"
      " network_address = 'n2' , core = '3' , gpudevice = '1'\n"
      "\n"
      " network_address = 'n1' , core = '4' , gpudevice = '0'\n";
  auto a = parse_oar_resources(text, "7", "gpudevice");
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->slots, (std::vector<std::string>{"n2", "n2", "n1", "n1"}));
  EXPECT_EQ(a->nodes(), 2);
  EXPECT_EQ(a->gpus, 3);  // n2: 0 and 1; n1: 0
  auto no_gpu = parse_oar_resources(text, "7", "");
  ASSERT_TRUE(no_gpu);
  EXPECT_EQ(no_gpu->gpus, 0);
}

TEST(OarAllocation, QuotedValuesKeepCommasAndBlanks) {
  auto p = parse_oar_resource_line(" a = 'x , y' ,b='' , c = 'z'");
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(*p, (std::vector<std::pair<std::string, std::string>>{{"a", "x , y"}, {"b", ""}, {"c", "z"}}));
}

TEST(OarAllocation, BadLinesAreErrorsNamingTheLine) {
  EXPECT_EQ(parse_oar_resources("", "9", "").error(), "OAR knows no resources of job 9 (is it running, and yours?)");
  auto unquoted = parse_oar_resources(" network_address = 'n1'\n core = 3\n", "9", "");
  ASSERT_FALSE(unquoted);
  EXPECT_EQ(unquoted.error(), "OAR job 9's resources, line 2: property 'core': its value is not quoted");
  auto open = parse_oar_resources(" network_address = 'n1", "9", "");
  ASSERT_FALSE(open);
  EXPECT_EQ(open.error(), "OAR job 9's resources, line 1: property 'network_address': unterminated value");
  auto no_host = parse_oar_resources(" core = '1'\n", "9", "");
  ASSERT_FALSE(no_host);
  EXPECT_EQ(no_host.error(), "OAR job 9's resources, line 1: no network_address");
  EXPECT_FALSE(parse_oar_resource_line(" a = 'x' b = 'y'"));
  EXPECT_FALSE(parse_oar_resource_line(" = 'x'"));
  EXPECT_FALSE(parse_oar_resource_line(" junk"));
}

TEST(OarAllocation, ArgvAskForOneJob) {
  EXPECT_EQ(oarstat_resources_argv("12"), (std::vector<std::string>{"oarstat", "-p", "-j", "12"}));
  EXPECT_EQ(oarstat_allocation_argv("12"), (std::vector<std::string>{"oarstat", "-J", "-f", "-j", "12"}));
}

}  // namespace
}  // namespace yard
