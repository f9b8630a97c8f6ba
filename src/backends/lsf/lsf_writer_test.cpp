// The #BSUB writer: slots and span, rusage memory, -W minutes, the output files' modes, -w conditions, -env.
#include <gtest/gtest.h>

#include "backends/lsf/lsf_language.h"
#include "jobtext/writer_testing.h"

namespace yard::jobtext {
namespace {

TEST(LsfWriter, AFullJobAndAnArray) {
  testing::expect_directives(write_lsf(testing::full_job()),
      "#BSUB -J alpha\n"
      "#BSUB -n 16\n"
      "#BSUB -W 1:30\n"
      "#BSUB -R \"rusage[mem=1GB/task] span[ptile=8]\"\n"
      "#BSUB -q short\n"
      "#BSUB -P proj1\n"
      "#BSUB -oo out-%J.txt\n"
      "#BSUB -eo err-%J.txt\n"
      "#BSUB -w 'done(42) && ended(43)'\n",
      {"0: --cpus-per-task 2: LSF counts slots (-n): 8 tasks of 2 CPUs, written as -n 16"});
  testing::expect_directives(write_lsf(testing::array_job()),
      "#BSUB -J job.sh[1-10]%3\n"
      "#BSUB -n 4\n"
      "#BSUB -W 0:10\n"
      "#BSUB -R \"rusage[mem=8GB] span[hosts=1]\"\n"
      "#BSUB -oo out-%J_%I.out\n",
      {"0: --cpus-per-task 4: LSF counts slots (-n): 1 task of 4 CPUs, written as -n 4"});
}

TEST(LsfWriter, AppendSecondsMailExportsAndGpus) {
  Job j;
  j.spec.res.ntasks = 4, j.spec.res.gpus = 2, j.spec.res.walltime_s = 61;
  j.spec.stdout_path = "o-%x.txt";
  j.spec.set_open_mode(OpenMode::Append);
  j.spec.dependencies = {{DependencyKind::AfterNotOk, 5}};
  j.options = {{"exclusive", ""}, {"mail-type", "BEGIN,END"}, {"wait", ""}, {"constraint", "fast"}};
  j.spec.priority = -3;
  j.exports = "NONE";
  j.lines["constraint"] = 9;
  testing::expect_directives(write_lsf(j),
      "#BSUB -n 4\n"
      "#BSUB -gpu \"num=2\"\n"
      "#BSUB -W 0:02\n"
      "#BSUB -R \"span[hosts=1]\"\n"
      "#BSUB -o o-.txt\n"
      "#BSUB -w 'exit(5)'\n"
      "#BSUB -x\n"
      "#BSUB -B\n"
      "#BSUB -N\n"
      "#BSUB -K\n"
      "#BSUB -env none\n",
      {"0: --time 61s: LSF's -W counts minutes; rounded up",
       "0: --output o-%x.txt: %x has no equivalent in LSF's file names; left out of the path",
       "0: --priority -3: LSF's priorities are positive; left out",
       "9: --constraint=fast: LSF has no equivalent of sbatch's --constraint; left out"});
}

TEST(LsfWriter, AnArrayFromZeroAndANameWithBrackets) {
  Job j;
  j.name_given = true;
  j.spec.name = "run[x]";
  j.spec.array = ArraySpec{{0, 2, 4}, 0};
  testing::expect_directives(write_lsf(j), "#BSUB -J runx[1-5:2]\n",
      {"0: --job-name run[x]: LSF's -J takes brackets for an array's indices; written without them",
       "0: --array 0,2,4: LSF numbers an array's elements from 1; each index is 1 more"});
}

// LSF puts values in for %J and %I in a path, and for $NAME in -env's values: a path's or
// a value's own is written as it is, a loss.
TEST(LsfWriter, APathsOwnPatternsAndAnEnvironmentsDollarsAreALoss) {
  Job j;
  j.spec.stdout_path = "100%%Job-%j";
  j.spec.stderr_path = "%%I%%";
  j.exports = "A=$HOME,B";
  const Directives d = write_lsf(j);
  EXPECT_NE(d.text.find("#BSUB -oo 100%Job-%J\n#BSUB -eo %I%\n"), std::string::npos) << d.text;
  EXPECT_EQ(testing::losses(d),
            (std::vector<std::string>{"0: --output 100%%Job-%j: LSF puts a value in for %J in a file name and has no "
                                      "way to keep it as written; written as it is",
                                      "0: --error %%I%%: LSF puts a value in for %I in a file name and has no way to "
                                      "keep it as written; written as it is",
                                      "0: --export A=$HOME: LSF puts a variable's value in for $NAME in -env's values "
                                      "and has no way to keep a $ as written; written as it is"}));
}

}  // namespace
}  // namespace yard::jobtext
