// The #PBS writer for PBS Pro: select chunks of one shape and place, -J ranges, and what PBS Pro has no words for.
#include <gtest/gtest.h>

#include "backends/pbs/pbs_language.h"
#include "jobtext/writer_testing.h"

namespace yard::jobtext {
namespace {

TEST(PbsProWriter, AFullJobAndAnArray) {
  testing::expect_directives(write_pbs(testing::full_job()),
      "#PBS -N alpha\n"
      "#PBS -l select=2:ncpus=8:mpiprocs=4:mem=8gb\n"
      "#PBS -l place=scatter\n"
      "#PBS -q short\n"
      "#PBS -A proj1\n"
      "#PBS -l walltime=1:30:00\n"
      "#PBS -o out-${PBS_JOBID}.txt\n"
      "#PBS -e err-${PBS_JOBID}.txt\n"
      "#PBS -W depend=afterok:42,afterany:43\n"
      "#PBS -V\n",
      {});
  testing::expect_directives(write_pbs(testing::array_job()),
      "#PBS -l select=1:ncpus=4:mem=8gb\n"
      "#PBS -l walltime=0:10:00\n"
      "#PBS -o out-${PBS_JOBID}_^array_index^.out\n"
      "#PBS -j oe\n"
      "#PBS -V\n"
      "#PBS -J 1-10%3\n",
      {"0: --output out-%A_%a.out: %A: PBS has no variable for an array's id; written as ${PBS_JOBID}, an element's own"});
}

TEST(PbsProWriter, UnevenTasksNodeMemoryExclusiveAndOddIndices) {
  Job j;
  j.spec.res.nodes = 2, j.spec.res.ntasks = 3, j.spec.res.mem_bytes = 3 * testing::kGiB, j.spec.res.gpus = 4;
  j.options = {{"exclusive", ""}, {"mail-type", "BEGIN,FAIL"}, {"mail-user", "me@x.org"}, {"wait", ""}};
  j.spec.array = ArraySpec{{1, 3, 7}, 0};
  j.spec.requeue = true;
  j.spec.priority = 5;
  j.exports = "ALL,A=1,B";
  j.chdir = "/scratch";
  testing::expect_directives(write_pbs(j),
      "#PBS -l select=3:ncpus=1:mem=2gb:ngpus=2\n"
      "#PBS -l place=excl\n"
      "#PBS -j oe\n"
      "#PBS -W block=true\n"
      "#PBS -m ba\n"
      "#PBS -M me@x.org\n"
      "#PBS -r y\n"
      "#PBS -p 5\n"
      "#PBS -V\n"
      "#PBS -v A=1,B\n"
      "#PBS -J 1-3\n",
      {"0: --nodes 2: 3 tasks do not divide among the nodes, and PBS Pro's chunks are of one shape: one chunk a "
       "task, the nodes PBS's choice",
       "0: --gpus 4: does not divide among 3 chunks; each asks for the next whole number",
       "0: --array 1,3,7: PBS Pro's -J takes one range with a step; written as 1-3",
       "0: --chdir /scratch: PBS Pro starts a job in the home directory and has no option for another; left out "
       "(cd in the script)"});
}

// qsub puts values in for $HOME, $USER, ^array_index^ and its own variables wherever they
// stand in a path, with no way to keep one as written: a path whose own text holds one is
// written as it is, a loss. Another $ stays, and so do the variables written for patterns,
// whatever follows them.
TEST(PbsProWriter, APathsOwnDollarWordsAreALoss) {
  Job j;
  j.spec.stdout_path = "$HOME/x-%j";
  j.spec.stderr_path = "$FOO/%u_NAME-%x^array";
  const Directives d = write_pbs(j);
  EXPECT_NE(d.text.find("#PBS -o $HOME/x-${PBS_JOBID}\n"), std::string::npos) << d.text;
  EXPECT_NE(d.text.find("#PBS -e $FOO/$USER_NAME-${PBS_JOBNAME}^array\n"), std::string::npos) << d.text;
  EXPECT_EQ(testing::losses(d), (std::vector<std::string>{"0: --output $HOME/x-%j: PBS Pro puts a value in for $HOME in "
                                                          "a file name and has no way to keep it as written; written as it is"}));
  j.spec.stdout_path = "a^array_index^", j.spec.stderr_path = "$PBS_JOBIDx";
  EXPECT_EQ(testing::losses(write_torque(j)).size(), 2u);
}

}  // namespace
}  // namespace yard::jobtext
