// LSF's #BSUB directives in sbatch's words, read as bsub reads a script: every line of
// it, bsub's options and units, -R's sections, -w's conditions, what is warned about and
// what is refused.
#include "backends/lsf/lsf_directives.h"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>

#include "jobtext/directive_testing.h"

namespace yard {
namespace {

using W = std::vector<std::string>;

class LsfDirectives : public ::testing::Test {
 protected:
  void SetUp() override { unsetenv("LSF_UNIT_FOR_LIMITS"); }
  void TearDown() override { unsetenv("LSF_UNIT_FOR_LIMITS"); }

  static W words(const std::string& script, std::vector<std::string>* warnings = nullptr,
                 bool (*is_dir)(const std::string&) = nullptr) {
    auto r = read_lsf_directives(script, "job.sh", is_dir);
    EXPECT_TRUE(r) << r.error();
    if (!r) return {};
    if (warnings) {
    *warnings = r->warnings;  // and what holds off the script's own scheduler, last
    warnings->insert(warnings->end(), r->outside_warnings.begin(), r->outside_warnings.end());
  }
    return r->directives.words;
  }
  static std::string refusal(const std::string& script) {
    auto r = read_lsf_directives(script, "job.sh");
    EXPECT_FALSE(r) << script;
    return r ? "" : r.error();
  }
};

TEST_F(LsfDirectives, EveryCommonOptionSaidInSbatchsWords) {
  const std::string script =
      "#!/bin/bash\n"
      "#BSUB -J sim\n"
      "#BSUB -n 4\n"
      "#BSUB -R \"rusage[mem=2000] span[hosts=1]\"\n"
      "#BSUB -W 1:30\n"
      "#BSUB -q normal -P proj\n"
      "#BSUB -o out.%J -e err.%J\n"
      "#BSUB -w 'done(12) && ended(13) && exit(14) && 15 && started(16)'\n"
      "#BSUB -x -B -N -u me@x.org\n"
      "echo\n";
  EXPECT_EQ(words(script),
            (W{"--job-name=sim", "--time=0-01:30:00", "--partition=normal", "--account=proj",
               "--dependency=after:16,afterany:13,afternotok:14,afterok:12:15", "--exclusive", "--mail-user=me@x.org",
               "--ntasks=4", "--nodes=1", "--mem=2048000K", "--output=out.%j", "--error=err.%j", "--open-mode=append",
               "--mail-type=BEGIN,END"}));
  // Each option combined across lines at its own line (a warning about one names it).
  auto r = read_lsf_directives(script, "job.sh");
  ASSERT_TRUE(r) << r.error();
  auto line_of = directive_testing::option_lines(*r);
  EXPECT_EQ(line_of["--ntasks"], 3);
  EXPECT_EQ(line_of["--nodes"], 4);
  EXPECT_EQ(line_of["--mem"], 4);
  EXPECT_EQ(line_of["--output"], 7);
  EXPECT_EQ(line_of["--mail-type"], 9);
}

TEST_F(LsfDirectives, AnyOneOfTheDependenciesIsSbatchsQuestionMark) {
  EXPECT_EQ(words("#BSUB -w 'done(1) || ended(2)'\n"), (W{"--dependency=afterany:2?afterok:1"}));
}

TEST_F(LsfDirectives, ArraysInTheJobsNameAndFilesThatOverwrite) {
  EXPECT_EQ(words("#BSUB -J \"arr[1-10:2,15]%3\"\n#BSUB -oo o.%J.%I\n"),
            (W{"--job-name=arr", "--array=1-10:2,15%3", "--output=o.%A.%a"}));
  EXPECT_EQ(words("#BSUB -o logs/ -eo 5%.err\n"), (W{"--output=logs/%j.out", "--error=5%%.err", "--open-mode=append"}));
  EXPECT_EQ(words("#BSUB -e logs\n", nullptr, [](const std::string&) { return true; }),
            (W{"--error=logs/%j.err", "--open-mode=append"}));
}

TEST_F(LsfDirectives, SizesInLsfsUnits) {
  EXPECT_EQ(words("#BSUB -M 4G\n"), (W{"--mem=4194304K"}));
  EXPECT_EQ(words("#BSUB -M 500!\n"), (W{"--mem=512000K"}));  // MB without LSF_UNIT_FOR_LIMITS
  setenv("LSF_UNIT_FOR_LIMITS", "KB", 1);
  EXPECT_EQ(words("#BSUB -M 4000\n"), (W{"--mem=4000K"}));
  setenv("LSF_UNIT_FOR_LIMITS", "GB", 1);
  EXPECT_EQ(words("#BSUB -R rusage[mem=2]\n"), (W{"--mem=2097152K"}));
  unsetenv("LSF_UNIT_FOR_LIMITS");
  // The larger of the limit and the reservation; a reservation per task is per CPU.
  EXPECT_EQ(words("#BSUB -M 1000 -R \"rusage[mem=3000:duration=10]\"\n"), (W{"--mem=3072000K"}));
  EXPECT_EQ(words("#BSUB -n 2 -R \"rusage[mem=100/task]\"\n"), (W{"--ntasks=2", "--mem-per-cpu=102400K"}));
}

TEST_F(LsfDirectives, GpusPerHostOrPerTaskAndTasksPerHost) {
  std::vector<std::string> warnings;
  EXPECT_EQ(words("#BSUB -n 2 -gpu \"num=2/task:mode=exclusive_process\"\n", &warnings), (W{"--ntasks=2", "--gpus=4"}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "job.sh:1: #BSUB -gpu mode=exclusive_process: GPUs' modes and models are not chosen by yard; ignored");
  EXPECT_EQ(words("#BSUB -gpu -\n"), (W{"--gpus=1"}));
  EXPECT_EQ(words("#BSUB -n 8 -R \"span[ptile=4]\" -gpu num=1\n"),
            (W{"--ntasks=8", "--ntasks-per-node=4", "--gpus=2"}));
}

TEST_F(LsfDirectives, EveryBsubLineCountsAsInBsub) {
  EXPECT_EQ(words("#!/bin/sh\n#BSUB -J first\necho\n  # BSUB -n4\n##BSUB -q no\n#BSUB -sp 10 # low priority\n"
                  "#BSUB -R \"span[hosts=1]\" \\\n  -q long\n"),
            (W{"--job-name=first", "--priority=10", "--partition=long", "--ntasks=4", "--nodes=1"}));
  EXPECT_TRUE(has_lsf_directives("echo\n#BSUB -n 2\n"));
  EXPECT_FALSE(has_lsf_directives("#!/bin/sh\n#BSUBX -n 2\n# BSUB is LSF's\n"));
}

TEST_F(LsfDirectives, EnvironmentAndTheSubmitDirectory) {
  std::vector<std::string> warnings;
  EXPECT_EQ(words("#BSUB -env \"all, ~HOME, A=1\"\n", &warnings), (W{"--export=ALL,A=1"}));
  EXPECT_EQ(warnings.at(0), "job.sh:1: #BSUB -env ~HOME: yard cannot leave one variable out; it is passed on");
  EXPECT_EQ(words("#BSUB -env none\n"), (W{"--export=NONE"}));
  EXPECT_EQ(words("#BSUB -env \"A=1, B\"\n"), (W{"--export=A=1,B"}));
  std::error_code ec;
  EXPECT_EQ(words("#BSUB -J x\ncd $LS_SUBCWD\n"),
            (W{"--job-name=x", "--export=ALL,LS_SUBCWD=" + std::filesystem::current_path(ec).string()}));
  EXPECT_EQ(words("#BSUB -K -r -cwd /tmp\n"), (W{"--wait", "--requeue", "--chdir=/tmp"}));
}

TEST_F(LsfDirectives, WhatChangesNothingIsAWarning) {
  std::vector<std::string> warnings;
  EXPECT_EQ(words("#BSUB -n 4,8 -R \"select[mem>4000] rusage[mem=1G]\" -G grp -W 10/hostA\n"
                  "mpirun -np $LSB_DJOB_NUMPROC ./a.out\n",
                  &warnings),
            (W{"--time=0-00:10:00", "--ntasks=4", "--mem=1048576K"}));
  ASSERT_EQ(warnings.size(), 5u);
  EXPECT_EQ(warnings[0], "job.sh:1: #BSUB -n 4,8: LSF may give any count in the range; yard asks for 4");
  EXPECT_EQ(warnings[1], "job.sh:1: #BSUB -R select[mem>4000]: placement yard does not know; ignored");
  EXPECT_EQ(warnings[2], "job.sh:1: #BSUB -G grp: no equivalent in yard; ignored");
  EXPECT_NE(warnings[3].find("-W 10/hostA: normalized to a host's speed"), std::string::npos);
  EXPECT_NE(warnings[4].find("job.sh: the script reads $LSB_DJOB_NUMPROC, which yard does not set"), std::string::npos);
}

TEST_F(LsfDirectives, WhatWouldChangeTheResultIsRefusedNamingTheLineAndValue) {
  EXPECT_EQ(refusal("#!/bin/sh\n#BSUB -W 9x\n"), "job.sh:2: in #BSUB directives: -W 9x: expected [hours:]minutes");
  EXPECT_EQ(refusal("#BSUB -H\n"), "job.sh:1: in #BSUB directives: -H: a job submitted on hold is not supported");
  EXPECT_NE(refusal("#BSUB -b 20:00\n").find("-b: a job starting at a given time"), std::string::npos);
  EXPECT_NE(refusal("#BSUB -Is bash\n").find("-Is: interactive jobs"), std::string::npos);
  EXPECT_NE(refusal("#BSUB -E ./pre.sh\n").find("-E: pre-execution commands"), std::string::npos);
  EXPECT_NE(refusal("#BSUB -w 'done(1) || done(2) && done(3)'\n").find("&& and || together"), std::string::npos);
  EXPECT_NE(refusal("#BSUB -w 'done(\"prep\")'\n").find("job names are not supported"), std::string::npos);
  EXPECT_NE(refusal("#BSUB -w 'post_done(3)'\n").find("'post_done(3)'"), std::string::npos);
  EXPECT_NE(refusal("#BSUB -M lots\n").find("-M lots: expected a size such as 4000 (MB) or 4G"), std::string::npos);
  EXPECT_NE(refusal("#BSUB -n 0\n").find("-n 0: expected a number of tasks"), std::string::npos);
  EXPECT_NE(refusal("#BSUB -R \"{select[a]}+{select[b]}\"\n").find("compound resource requirements"), std::string::npos);
  EXPECT_NE(refusal("#BSUB -R \"rusage[mem=4X]\"\n").find("mem=4X is not a size"), std::string::npos);
  EXPECT_NE(refusal("#BSUB -J \"x[1-\"\n").find("-J x[1-: unclosed ["), std::string::npos);
  EXPECT_NE(refusal("#BSUB -frob 1\n").find("unknown LSF option -frob"), std::string::npos);
  EXPECT_NE(refusal("#BSUB -n 4 extra\n").find("'extra' is not an option of bsub's"), std::string::npos);
  EXPECT_NE(refusal("#BSUB -q\n").find("-q option must have a value"), std::string::npos);
  EXPECT_NE(refusal("#BSUB -J 'x\n").find("job.sh:1: unmatched single quote"), std::string::npos);
}

}  // namespace
}  // namespace yard
