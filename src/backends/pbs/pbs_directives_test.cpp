// PBS Pro's and Torque's #PBS directives in sbatch's words, read as qsub reads them: the
// resource forms of both, where reading stops, getopt's forms, what is warned about and
// what is refused.
#include "backends/pbs/pbs_directives.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "jobtext/directive_testing.h"

namespace yard {
namespace {

using W = std::vector<std::string>;

W words(const std::string& script, std::vector<std::string>* warnings = nullptr,
        bool (*is_dir)(const std::string&) = nullptr) {
  auto r = read_pbs_directives(script, "job.sh", is_dir);
  EXPECT_TRUE(r) << r.error();
  if (!r) return {};
  if (warnings) {
    *warnings = r->warnings;  // and what holds off the script's own scheduler, last
    warnings->insert(warnings->end(), r->outside_warnings.begin(), r->outside_warnings.end());
  }
  return r->directives.words;
}

std::string refusal(const std::string& script) {
  auto r = read_pbs_directives(script, "job.sh");
  EXPECT_FALSE(r) << script;
  return r ? "" : r.error();
}

bool has(const std::vector<std::string>& warnings, const std::string& text) {
  for (const auto& w : warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

TEST(PbsDirectives, EveryCommonPbsProOptionSaidInSbatchsWords) {
  const std::string script =
      "#!/bin/bash\n"
      "#PBS -N sim -q workq@server -A proj\n"
      "#PBS -l walltime=1:30:00\n"
      "#PBS -l select=2:ncpus=8:mpiprocs=4:mem=16gb:ngpus=1\n"
      "#PBS -o out.$PBS_JOBID -e err.^array_index^\n"
      "#PBS -J 1-9:2%3\n"
      "#PBS -W depend=afterok:12.srv:14,afterany:15\n"
      "#PBS -v A=1,B -p -10 -r n\n"
      "#PBS -m abe -M me@x.org\n"
      "echo hi\n";
  // The lines' own words, then those combined across lines, in the order of their lines.
  EXPECT_EQ(words(script),
            (W{"--job-name=sim", "--partition=workq", "--dependency=afterok:12:14,afterany:15", "--priority=-10",
               "--no-requeue", "--mail-type=FAIL,BEGIN,END", "--mail-user=me@x.org", "--account=proj",
               "--time=0-01:30:00", "--ntasks=8", "--cpus-per-task=2", "--mem-per-cpu=2097152K", "--gpus=2",
               "--output=out.%j", "--error=err.%a", "--array=1-9:2%3", "--export=A=1,B"}));
  // Each combined option at its own line (a warning or error about one names it).
  auto r = read_pbs_directives(script, "job.sh");
  ASSERT_TRUE(r) << r.error();
  auto line_of = directive_testing::option_lines(*r);
  EXPECT_EQ(line_of["--account"], 2);
  EXPECT_EQ(line_of["--time"], 3);
  EXPECT_EQ(line_of["--cpus-per-task"], 4);
  EXPECT_EQ(line_of["--error"], 5);
  EXPECT_EQ(line_of["--array"], 6);
  EXPECT_EQ(line_of["--export"], 8);
}

TEST(PbsDirectives, TorqueNodesArraysAndDirectories) {
  EXPECT_EQ(words("#!/bin/sh\n#PBS -l nodes=2:ppn=4:gpus=1,walltime=10:00,mem=8gb\n#PBS -t 1-10%2\n"
                  "#PBS -d /scratch -j oe -o log -e ignored\n"),
            (W{"--chdir=/scratch", "--ntasks=8", "--gpus=2", "--nodes=2", "--mem=4194304K", "--time=0-00:10:00",
               "--array=1-10%2", "--output=log", "--export=NONE"}));
  // Job-wide counts, one task per process and the CPUs of one task.
  EXPECT_EQ(words("#PBS -l procs=6,ncpus=2,pmem=1gb\n"), (W{"--ntasks=6", "--cpus-per-task=2", "--mem-per-cpu=1048576K", "--export=NONE"}));
  std::vector<std::string> warnings;
  EXPECT_EQ(words("#PBS -l nodes=n01+n02:ppn=2:ib\n", &warnings), (W{"--ntasks=3", "--nodes=2", "--export=NONE"}));
  EXPECT_TRUE(has(warnings, "job.sh:1: #PBS -l nodes=n01: yard does not choose nodes by name")) << warnings[0];
  EXPECT_TRUE(has(warnings, "#PBS -l nodes: ib: a node property yard does not match; ignored"));
}

TEST(PbsDirectives, PlacementGivesNodesOrTheWholeNodes) {
  EXPECT_EQ(words("#PBS -l select=3:ncpus=2 -l place=scatter:excl\n"),
            (W{"--ntasks=3", "--cpus-per-task=2", "--nodes=3", "--exclusive", "--export=NONE"}));
  EXPECT_EQ(words("#PBS -l select=2:ncpus=1,place=pack\n"), (W{"--ntasks=2", "--cpus-per-task=1", "--nodes=1", "--export=NONE"}));
  // Chunks of one shape add up; a later -l of the same name replaces the earlier.
  EXPECT_EQ(words("#PBS -l select=1:ncpus=4+2:ncpus=4\n#PBS -l walltime=60 -l walltime=120\n"),
            (W{"--ntasks=3", "--cpus-per-task=4", "--time=0-00:02:00", "--export=NONE"}));
  std::vector<std::string> warnings;
  EXPECT_EQ(words("#PBS -l select=1:ncpus=6:mpiprocs=4\n", &warnings), (W{"--ntasks=4", "--cpus-per-task=2", "--export=NONE"}));
  EXPECT_TRUE(has(warnings, "ncpus=6 does not divide among mpiprocs=4; each task gets 2"));
}

TEST(PbsDirectives, OneMemoryRequestTheChunksThenTheJobsThenAProcesss) {
  std::vector<std::string> warnings;
  EXPECT_EQ(words("#PBS -l select=1:ncpus=2:mem=1gb\n#PBS -l mem=4gb\n", &warnings),
            (W{"--ntasks=1", "--cpus-per-task=2", "--mem-per-cpu=524288K", "--export=NONE"}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "job.sh:2: #PBS -l mem: select's mem counts; ignored");
  EXPECT_EQ(words("#PBS -l pmem=1gb,mem=2gb\n", &warnings), (W{"--mem=2097152K", "--export=NONE"}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "job.sh:1: #PBS -l pmem: -l mem counts; ignored");
}

TEST(PbsDirectives, ReadingStopsAtTheFirstCommandAsInQsub) {
  EXPECT_EQ(words("#!/bin/sh\n  #PBS -N indented\n# a comment\n\n: a no-op\n#PBS -l select=1:\\\nncpus=4\necho\n#PBS -N late\n"),
            (W{"--job-name=indented", "--ntasks=1", "--cpus-per-task=4", "--export=NONE"}));
  EXPECT_TRUE(has_pbs_directives("#!/bin/sh\n#PBS -N x\n"));
  EXPECT_FALSE(has_pbs_directives("#!/bin/sh\necho\n#PBS -N x\n"));
  EXPECT_FALSE(has_pbs_directives("#!/bin/sh\n#PBS_NODEFILE lists the nodes\n"));
}

TEST(PbsDirectives, OptionsAsGetoptReadsThem) {
  EXPECT_EQ(words("#PBS -Nglued -lwalltime=60 -Vjoe -o o.txt -e e.txt # the rest is a comment\n"),
            (W{"--job-name=glued", "--time=0-00:01:00", "--output=o.txt"}));
  EXPECT_EQ(words("#PBS -o o.txt -e e.txt -j eo\n"), (W{"--output=e.txt", "--export=NONE"}));  // both in the error file
  EXPECT_EQ(words("#PBS -N 'two words' -q \"long queue\"\n"), (W{"--job-name=two words", "--partition=long queue", "--export=NONE"}));
}

TEST(PbsDirectives, OutputPathsInYardsPatterns) {
  EXPECT_EQ(words("#PBS -o logs/\n"), (W{"--output=logs/%j.OU", "--export=NONE"}));
  EXPECT_EQ(words("#PBS -e logs\n", nullptr, [](const std::string&) { return true; }), (W{"--error=logs/%j.ER", "--export=NONE"}));
  EXPECT_EQ(words("#PBS -o 50%.$PBS_JOBNAME.${PBS_ARRAYID}\n"), (W{"--output=50%%.%x.%a", "--export=NONE"}));
  std::vector<std::string> warnings;
  EXPECT_EQ(words("#PBS -o login1:/tmp/x\n", &warnings), (W{"--output=/tmp/x", "--export=NONE"}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "job.sh:1: #PBS -o login1:/tmp/x: the file is written where the job runs; 'login1:' ignored");
}

// As qsub, the job gets the caller's environment with -V only; without it, -v's variables
// alone. A script without #PBS lines keeps yard's default (ALL).
TEST(PbsDirectives, TheCallersEnvironmentOnlyWithCapitalV) {
  EXPECT_EQ(words("#PBS -N x\n"), (W{"--job-name=x", "--export=NONE"}));
  EXPECT_EQ(words("#PBS -v A=1,B\n"), (W{"--export=A=1,B"}));
  EXPECT_EQ(words("#PBS -V\n"), W{});
  EXPECT_EQ(words("#PBS -V -v A=1\n"), (W{"--export=ALL,A=1"}));
  EXPECT_EQ(words("#!/bin/sh\necho no directives\n"), W{});
}

TEST(PbsDirectives, AScriptThatGoesToPbsOWorkdirFindsIt) {
  std::error_code ec;
  const std::string cwd = std::filesystem::current_path(ec).string();
  EXPECT_EQ(words("#PBS -N x\ncd $PBS_O_WORKDIR\n"), (W{"--job-name=x", "--export=PBS_O_WORKDIR=" + cwd}));
  EXPECT_EQ(words("#PBS -o $PBS_O_WORKDIR/out -V\n"), (W{"--output=" + cwd + "/out", "--export=ALL,PBS_O_WORKDIR=" + cwd}));
  EXPECT_EQ(words("#PBS -w /data -v A=1\ncd $PBS_O_WORKDIR\n"), (W{"--chdir=/data", "--export=PBS_O_WORKDIR=/data,A=1"}));
  EXPECT_EQ(words("#PBS -N x -V\ncd $HOME\n"), (W{"--job-name=x"}));  // nothing added when it is not read
  EXPECT_EQ(words("#!/bin/sh\ncd $PBS_O_WORKDIR\n"), W{});          // nor to a script without directives
}

TEST(PbsDirectives, WhatChangesNothingIsAWarningNamingTheLine) {
  std::vector<std::string> warnings;
  EXPECT_EQ(words("#!/bin/bash\n#PBS -S /bin/bash -k oe\n#PBS -l arch=linux -W group_list=g stray\n"
                  "echo $PBS_ARRAY_INDEX ${PBS_JOBID} $PBS_JOBIDX\n",
                  &warnings),
            (W{"--export=NONE"}));
  ASSERT_EQ(warnings.size(), 5u) << warnings[0];
  EXPECT_EQ(warnings[0], "job.sh:2: #PBS -k oe: no equivalent in yard; ignored");
  EXPECT_EQ(warnings[1], "job.sh:3: #PBS -l arch: a resource yard does not know; ignored");
  EXPECT_EQ(warnings[2], "job.sh:3: #PBS -W group_list: no equivalent in yard; ignored");
  EXPECT_EQ(warnings[3], "job.sh:3: #PBS 'stray': not an option; qsub ignores it");
  EXPECT_EQ(warnings[4],
            "job.sh: the script reads $PBS_ARRAY_INDEX, $PBS_JOBID, which yard does not set; yard's own are "
            "$YARD_JOB_ID, $YARD_JOB_NAME, $SLURM_ARRAY_TASK_ID, $YARD_NTASKS");
  EXPECT_EQ(words("#!/bin/sh\n#PBS -S /bin/bash\n", &warnings), (W{"--export=NONE"}));
  EXPECT_TRUE(has(warnings, "job.sh:2: #PBS -S /bin/bash: the script runs with the interpreter of its #! line"));
  EXPECT_EQ(words("#PBS -W block=true -n\n"), (W{"--wait", "--exclusive", "--export=NONE"}));
}

TEST(PbsDirectives, WhatWouldChangeTheResultIsRefusedNamingTheLineAndValue) {
  EXPECT_EQ(refusal("#!/bin/sh\n#PBS -h\n"), "job.sh:2: in #PBS directives: -h: a job submitted on hold is not supported");
  EXPECT_EQ(refusal("#PBS -l walltime=soon\n"),
            "job.sh:1: in #PBS directives: -l walltime=soon: expected [[hours:]minutes:]seconds");
  EXPECT_NE(refusal("#PBS -a 1200\n").find("-a 1200: a job starting at a given time"), std::string::npos);
  EXPECT_NE(refusal("#PBS -I\n").find("-I: interactive jobs"), std::string::npos);
  EXPECT_NE(refusal("#PBS -W depend=before:1\n").find("'before': yard holds a job only until others start (after) or end"), std::string::npos);
  EXPECT_NE(refusal("#PBS -W depend=afterok:first\n").find("'first' is not a job id"), std::string::npos);
  EXPECT_NE(refusal("#PBS -W stagein=a@h:b\n").find("-W stagein: staging"), std::string::npos);
  EXPECT_NE(refusal("#PBS -l mem=4x\n").find("-l mem=4x: expected a size"), std::string::npos);
  EXPECT_NE(refusal("#PBS -l select=1:ncpus=2+1:ncpus=4\n").find("chunks of different shapes"), std::string::npos);
  EXPECT_NE(refusal("#PBS -l select=1:ncpus=2\n#PBS -l nodes=1:ppn=2\n").find("job.sh:2: in #PBS directives: -l select and -l nodes"),
            std::string::npos);
  EXPECT_NE(refusal("#PBS -J 9-x\n").find("-J 9-x: "), std::string::npos);
  EXPECT_NE(refusal("#PBS -j y\n").find("-j y: expected oe, eo or n"), std::string::npos);
  EXPECT_NE(refusal("#PBS -p 5000\n").find("-p 5000: expected a priority"), std::string::npos);
  EXPECT_NE(refusal("#PBS -v \"x='a,b'\"\n").find("a value holding a comma"), std::string::npos);
  EXPECT_NE(refusal("#PBS -u somebody-else\n").find("-u somebody-else: running as another user"), std::string::npos);
  EXPECT_NE(refusal("#PBS -Z\n").find("unknown PBS option -Z"), std::string::npos);
  EXPECT_NE(refusal("#PBS -q\n").find("job.sh:1: in #PBS directives: -q option must have a value"), std::string::npos);
  EXPECT_NE(refusal("#PBS -N 'open\n").find("job.sh:1: unmatched single quote"), std::string::npos);
  EXPECT_NE(refusal("#PBS -N x\r\n").find("DOS line break"), std::string::npos);
}

}  // namespace
}  // namespace yard
