// OAR's #OAR directives in sbatch's words, read as oarsub 2.5.9 reads them: the resource
// hierarchy, one option per line, what is warned about and what is refused.
#include "backends/oar/oar_directives.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

using W = std::vector<std::string>;

W words(const std::string& script, std::vector<std::string>* warnings = nullptr) {
  auto r = read_oar_directives(script, "job.sh");
  EXPECT_TRUE(r) << r.error();
  if (!r) return {};
  if (warnings) *warnings = r->warnings;
  return r->directives.words;
}

std::string refusal(const std::string& script) {
  auto r = read_oar_directives(script, "job.sh");
  EXPECT_FALSE(r);
  return r ? "" : r.error();
}

TEST(OarDirectives, TheResourceHierarchyBecomesNodesTasksGpusAndTime) {
  EXPECT_EQ(words("#!/bin/bash\n#OAR -l /nodes=2/core=4,walltime=1:30:00\n"),
            (W{"--nodes=2", "--ntasks=8", "--time=0-01:30:00"}));
  EXPECT_EQ(words("#!/bin/bash\n#OAR -l /host=1/gpu=2/core=1,walltime=2\n"),
            (W{"--nodes=1", "--ntasks=2", "--gpus=2", "--time=0-02:00:00"}));
  // Cores under GPUs are each GPU's (as yard's OAR writer and backend ask for them).
  EXPECT_EQ(words("#!/bin/bash\n#OAR -l /nodes=2/gpu=2/core=4\n"), (W{"--nodes=2", "--ntasks=16", "--gpus=4"}));
  EXPECT_EQ(words("#!/bin/bash\n#OAR -l /core=4\n"), (W{"--ntasks=4"}));
  EXPECT_EQ(words("#!/bin/bash\n#OAR -l walltime=0:10\n"), (W{"--time=0-00:10:00"}));
}

TEST(OarDirectives, OneOptionPerLineItsValueTheRestOfTheLine) {
  EXPECT_EQ(words("#!/bin/sh\n#OAR -n my sim\n#OAR --project melissa\n#OAR -q default\n#OAR -O out.%jobid%.txt\n"
                  "#OAR -E err-%jobname%-%arrayindex%\n#OAR -a 12\n#OAR --array 5\n#OAR -d /scratch\necho\n"
                  "#OAR -n after-the-first-command\n"),
            (W{"--job-name=my sim", "--account=melissa", "--partition=default", "--output=out.%j.txt",
               "--error=err-%x-%a", "--dependency=afterany:12", "--array=1-5", "--chdir=/scratch",
               "--job-name=after-the-first-command"}));
}

TEST(OarDirectives, OnlyWhenTheFirstLineIsAComment) {
  EXPECT_TRUE(words("echo first\n#OAR -n x\n").empty());
  EXPECT_TRUE(words("#OAR -n first-line-is-not-read\n").empty());  // oarsub scans from line 2
  EXPECT_FALSE(has_oar_directives("echo\n#OAR -n x\n"));
  EXPECT_TRUE(has_oar_directives("#!/bin/sh\n#OAR -n x\n"));
  EXPECT_FALSE(has_oar_directives("#!/bin/sh\n#OARX -n x\n"));
}

TEST(OarDirectives, WarningsAndRefusalsNameTheLine) {
  std::vector<std::string> warnings;
  EXPECT_EQ(words("#!/bin/sh\n#OAR -t besteffort\n#OAR -l {gpu_model='A100'}/core=2\n#OAR -l /core=8\n", &warnings),
            (W{"--job-type=besteffort", "--ntasks=2"}));
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[1].find("job.sh:4: #OAR -l: another moldable alternative"), std::string::npos);
  EXPECT_EQ(refusal("#!/bin/sh\n#OAR --hold\n"), "job.sh:2: in #OAR directives: --hold: a job submitted on hold is not supported");
  EXPECT_NE(refusal("#!/bin/sh\n#OAR --frob 1\n").find("job.sh:2: in #OAR directives: Not able to scan file line: --frob 1"),
            std::string::npos);
  EXPECT_NE(refusal("#!/bin/sh\n#OAR -l /nodes=ALL\n").find("ALL and BEST"), std::string::npos);
  EXPECT_NE(refusal("#!/bin/sh\n#OAR -l /core=2,walltime=soon\n").find("walltime=soon"), std::string::npos);
  EXPECT_NE(refusal("#!/bin/sh\n#OAR -a first\n").find("expected a job id"), std::string::npos);
  EXPECT_NE(refusal("#!/bin/sh\n#OAR -n x\r\n").find("DOS line break"), std::string::npos);
}

// OAR's own variables are said (off OAR) when the script reads them.
TEST(OarDirectives, TheSchedulersVariablesTheScriptReadsAreNamed) {
  auto r = read_oar_directives("#!/bin/sh\n#OAR -n x\nmpirun -machinefile $OAR_NODEFILE ./a\n", "job.sh");
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->outside_warnings.size(), 1u);
  EXPECT_EQ(r->outside_warnings[0].rfind("job.sh: the script reads $OAR_NODEFILE, which yard does not set", 0), 0u)
      << r->outside_warnings[0];
}

}  // namespace
}  // namespace yard
