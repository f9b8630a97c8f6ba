// Grid Engine's #$ directives in sbatch's words: every option qsub takes in a script,
// the ones combined across lines, what is warned about and what is refused.
#include "backends/sge/sge_directives.h"

#include <gtest/gtest.h>

#include "jobtext/directive_testing.h"

namespace yard {
namespace {

std::vector<std::string> words(const std::string& script, std::vector<std::string>* warnings = nullptr,
                               bool (*is_dir)(const std::string&) = nullptr) {
  auto r = read_sge_directives(script, "job.sh", is_dir);
  EXPECT_TRUE(r) << r.error();
  if (!r) return {};
  if (warnings) *warnings = r->warnings;
  return r->directives.words;
}

std::string refusal(const std::string& script) {
  auto r = read_sge_directives(script, "job.sh");
  EXPECT_FALSE(r);
  return r ? "" : r.error();
}

using W = std::vector<std::string>;

TEST(SgeDirectives, EveryCommonOptionSaidInSbatchsWords) {
  const std::string script =
      "#!/bin/bash\n"
      "#$ -N sim -q all.q -P melissa\n"
      "#$ -l h_rt=1:30:00,h_vmem=2G\n"
      "#$ -pe smp 4\n"
      "#$ -wd /scratch/run -p -10\n"
      "#$ -hold_jid 12,14\n"
      "#$ -t 1-9:2 -tc 3\n"
      "#$ -o out.$JOB_ID.$TASK_ID -e err-$JOB_NAME -v A=1,B\n"
      "echo hi\n";
  EXPECT_EQ(words(script), (W{"--job-name=sim", "--partition=all.q", "--account=melissa", "--time=0-01:30:00",
                              "--mem-per-cpu=2097152K", "--chdir=/scratch/run", "--priority=-10",
                              "--dependency=afterany:12:14", "-c", "4", "--array=1-9:2%3", "--output=out.%A.%a",
                              "--error=err-%x", "--export=A=1,B"}));
}

// As qsub, the job gets the caller's environment with -V only; without it, -v's variables
// alone. A script without #$ lines keeps yard's default (ALL).
TEST(SgeDirectives, TheCallersEnvironmentOnlyWithCapitalV) {
  EXPECT_EQ(words("#$ -N x\n"), (W{"--job-name=x", "--export=NONE"}));
  EXPECT_EQ(words("#$ -v A=1,B\n#$ -v C\n"), (W{"--export=A=1,B,C"}));
  EXPECT_EQ(words("#$ -cwd -V\n"), W{});
  EXPECT_EQ(words("#$ -V -v A=1\n"), (W{"--export=ALL,A=1"}));
  EXPECT_EQ(words("#!/bin/sh\necho no directives\n"), W{});
}

TEST(SgeDirectives, EveryLineOfTheScriptCountsAndTheLastValueWins) {
  // qsub reads #$ lines after the first command too (checked on Grid Engine 8.1.9).
  EXPECT_EQ(words("#!/bin/sh\n#$ -N early\necho\n#$ -N late\n"), (W{"--job-name=early", "--job-name=late", "--export=NONE"}));
  EXPECT_TRUE(words("#!/bin/sh\n#$$ -N no\n##$ -N no\n #$ -N no\n").empty());
}

// Options that combine across lines are said at the line that gave them, so that a
// warning or an error about one (yard translate's, yard submit's) names that line.
TEST(SgeDirectives, CombinedOptionsKeepTheLineThatGaveThem) {
  auto r = read_sge_directives("#!/bin/sh\n#$ -pe smp 4\n#$ -t 1-3\n#$ -o out\n#$ -m ea\necho\n", "job.sh");
  ASSERT_TRUE(r) << r.error();
  auto line_of = directive_testing::option_lines(*r);
  EXPECT_EQ(line_of["-c"], 2);
  EXPECT_EQ(line_of["--array"], 3);
  EXPECT_EQ(line_of["--output"], 4);
  EXPECT_EQ(line_of["--export"], 5);  // no -v nor -V: NONE, from the last line read
}

TEST(SgeDirectives, MpiEnvironmentsAreTasksOthersCpusAndGpusCountPerSlot) {
  EXPECT_EQ(words("#$ -pe openmpi 8 -l gpu=1\n"), (W{"-n", "8", "--gpus=8", "--export=NONE"}));
  std::vector<std::string> warnings;
  EXPECT_EQ(words("#$ -pe smp 2-8\n", &warnings), (W{"-c", "2", "--export=NONE"}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("job.sh:1: #$ -pe: a range of slots"), std::string::npos) << warnings[0];
}

TEST(SgeDirectives, JoinedOutputDropsTheErrorFileAndADirectoryGetsGridEnginesNames) {
  EXPECT_EQ(words("#$ -o o.txt -e e.txt -j y\n"), (W{"--output=o.txt", "--export=NONE"}));
  // An array's tasks share its $JOB_ID: the array's id.
  EXPECT_EQ(words("#$ -o o.$JOB_ID -e e.$JOB_ID\n"), (W{"--output=o.%j", "--error=e.%j", "--export=NONE"}));
  EXPECT_EQ(words("#$ -o o.$JOB_ID.$TASK_ID -t 1-2\n"), (W{"--array=1-2", "--output=o.%A.%a", "--export=NONE"}));
  EXPECT_EQ(words("#$ -o logs/ -t 1-2\n"), (W{"--array=1-2", "--output=logs/%x.o%A.%a", "--export=NONE"}));
  EXPECT_EQ(words("#$ -e logs\n", nullptr, [](const std::string&) { return true; }), (W{"--error=logs/%x.e%j", "--export=NONE"}));
  EXPECT_EQ(words("#$ -o 50%.txt\n"), (W{"--output=50%%.txt", "--export=NONE"}));
}

TEST(SgeDirectives, TimesAndSizesInGridEnginesUnits) {
  EXPECT_EQ(words("#$ -l h_rt=90\n"), (W{"--time=0-00:01:30", "--export=NONE"}));
  EXPECT_EQ(words("#$ -l h_rt=100:00:00\n"), (W{"--time=4-04:00:00", "--export=NONE"}));
  EXPECT_EQ(words("#$ -l mem_free=1g\n"), (W{"--mem-per-cpu=976563K", "--export=NONE"}));  // decimal units
  EXPECT_EQ(words("#$ -l h_vmem=512M\n"), (W{"--mem-per-cpu=524288K", "--export=NONE"}));
}

TEST(SgeDirectives, WhatChangesNothingIsAWarningNamingTheLine) {
  std::vector<std::string> warnings;
  EXPECT_EQ(words("#!/bin/sh\n#$ -cwd -V -S /bin/bash\n#$ -notify\n#$ -l arch=lx-amd64\n", &warnings), W{});
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0], "job.sh:3: #$ -notify: no equivalent in yard; ignored");
  EXPECT_EQ(warnings[1], "job.sh:4: #$ -l arch: a site's resource yard does not know; ignored");
}

// Grid Engine's own variables are said (off Grid Engine) when the script reads them.
TEST(SgeDirectives, TheSchedulersVariablesTheScriptReadsAreNamed) {
  auto r = read_sge_directives("#!/bin/sh\n#$ -t 1-3\necho $SGE_TASK_ID ${NSLOTS} $SGE_TASK_IDX\n", "job.sh");
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->outside_warnings.size(), 1u);
  EXPECT_EQ(r->outside_warnings[0].rfind("job.sh: the script reads $NSLOTS, $SGE_TASK_ID, which yard does not set", 0), 0u)
      << r->outside_warnings[0];
  EXPECT_TRUE(read_sge_directives("#$ -N x\necho $HOME\n", "job.sh")->outside_warnings.empty());
}

// qsub's mail letters are sbatch's --mail-type (the local backend sends it; Slurm's and
// Grid Engine's writers say it again); a suspension has no mail in yard.
TEST(SgeDirectives, MailLettersAreMailTypes) {
  std::vector<std::string> warnings;
  EXPECT_EQ(words("#$ -m bea -M me@x.org\n", &warnings),
            (W{"--mail-type=BEGIN,END,FAIL", "--mail-user=me@x.org", "--export=NONE"}));
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(words("#$ -m n\n"), (W{"--mail-type=NONE", "--export=NONE"}));
  EXPECT_EQ(words("#$ -m s\n", &warnings), (W{"--export=NONE"}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "job.sh:1: #$ -m s: yard sends no mail when a job is suspended; ignored");
  EXPECT_NE(refusal("#$ -m x\n").find("-m x: expected n or letters of beas"), std::string::npos);
}

TEST(SgeDirectives, WhatWouldChangeTheResultIsRefusedNamingTheLine) {
  EXPECT_EQ(refusal("#!/bin/sh\n#$ -h\n"), "job.sh:2: in #$ directives: -h: a job submitted on hold is not supported");
  EXPECT_NE(refusal("#$ -hold_jid prep\n").find("'prep' is not a job id"), std::string::npos);
  EXPECT_NE(refusal("#$ -q\n").find("job.sh:1: in #$ directives: -q option must have a value"), std::string::npos);
  EXPECT_NE(refusal("#$ -pe smp\n").find("-pe option must have two values"), std::string::npos);
  EXPECT_NE(refusal("#$ -frobnicate 3\n").find("unknown Grid Engine option -frobnicate"), std::string::npos);
  EXPECT_NE(refusal("#$ sim\n").find("'sim' is not a Grid Engine option"), std::string::npos);
  EXPECT_NE(refusal("#$ -l h_rt=soon\n").find("h_rt=soon"), std::string::npos);
  EXPECT_NE(refusal("#$ -l h_vmem=4X\n").find("h_vmem=4X"), std::string::npos);
  EXPECT_NE(refusal("#$ -N 'open\n").find("job.sh:1: unmatched single quote"), std::string::npos);
  EXPECT_NE(refusal("#$ -N x\r\n").find("DOS line break"), std::string::npos);
}

TEST(SgeDirectives, DetectedOnlyInColumnOne) {
  EXPECT_TRUE(has_sge_directives("#!/bin/sh\n#$ -N x\n"));
  EXPECT_FALSE(has_sge_directives("#!/bin/sh\n  #$ -N x\n#SBATCH -J x\n"));
}

}  // namespace
}  // namespace yard
