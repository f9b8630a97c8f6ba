// The #$ writer: slots of a parallel environment, a slot's memory, -t ranges, -hold_jid, and what Grid Engine has no words for.
#include <gtest/gtest.h>

#include "backends/sge/sge_language.h"
#include "jobtext/writer_testing.h"

namespace yard::jobtext {
namespace {

TEST(GridEngineWriter, AFullJobAndAnArray) {
  testing::expect_directives(write_sge(testing::full_job()),
      "#$ -N alpha\n"
      "#$ -pe mpi 16\n"
      "#$ -l h_vmem=1G\n"
      "#$ -l h_rt=1:30:00\n"
      "#$ -q short\n"
      "#$ -P proj1\n"
      "#$ -o out-$JOB_ID.txt\n"
      "#$ -e err-$JOB_ID.txt\n"
      "#$ -hold_jid 42,43\n"
      "#$ -cwd\n"
      "#$ -V\n",
      {"0: --cpus-per-task 2: a Grid Engine slot is one CPU: 8 tasks of 2 CPUs, written as -pe mpi 16",
       "0: --nodes 2: Grid Engine has no node count (the parallel environment mpi spreads the slots)",
       "0: --dependency afterok:42: Grid Engine waits for a job's end however it ends (-hold_jid); written as afterany"});
  testing::expect_directives(write_sge(testing::array_job()),
      "#$ -pe smp 4\n"
      "#$ -l h_vmem=2G\n"
      "#$ -l h_rt=0:10:00\n"
      "#$ -t 1-10\n"
      "#$ -tc 3\n"
      "#$ -o out-$JOB_ID_$TASK_ID.out\n"
      "#$ -j y\n"
      "#$ -cwd\n"
      "#$ -V\n",
      {});
}

TEST(GridEngineWriter, GpusMemoryShareIndicesAndDirectory) {
  Job j;
  j.spec.res.ntasks = 3, j.spec.res.mem_bytes = 1 * testing::kGiB, j.spec.res.gpus = 2;
  j.spec.array = ArraySpec{{0, 1, 2}, 0};
  j.spec.priority = -10;
  j.spec.requeue = true;
  j.options = {{"mail-type", "ALL"}};
  j.chdir = "/scratch";
  j.exports = "A=1";
  j.lines["gpus"] = 4;
  testing::expect_directives(write_sge(j),
      "#$ -pe mpi 3\n"
      "#$ -l h_vmem=349526K\n"
      "#$ -t 1-3\n"
      "#$ -p -10\n"
      "#$ -j y\n"
      "#$ -wd /scratch\n"
      "#$ -v A=1\n"
      "#$ -m abe\n"
      "#$ -r y\n",
      {"0: --mem 1G: Grid Engine's memory is a slot's; 3 slots get 349526K each, rounded up",
       "4: --gpus 2: Grid Engine has no GPU request but a site's own complex (gpu_resource in sge.yaml); left out",
       "0: --array 0-2: Grid Engine's -t takes one range with a step from 1; written as 1-3"});
  // A site's settings are the writer's: its GPU complex, and its environments' names.
  SgeSettings site;
  site.gpu_resource = "gpu", site.pe_multi_node = "orte";
  j.spec.res.gpus = 3;
  const Directives d = write_sge(j, site);
  EXPECT_NE(d.text.find("#$ -pe orte 3\n#$ -l h_vmem=349526K\n#$ -l gpu=1\n"), std::string::npos) << d.text;
}

// A user may only lower a job's priority: a higher one is left out (the job runs), a
// lower one than Grid Engine's lowest is written as that. Names qsub would split are left out.
TEST(GridEngineWriter, PriorityOnlyLowerAndNamesAsQsubReadsThem) {
  Job j;
  j.spec.priority = 100;
  j.spec.partition = "all.q@node1";
  j.spec.account = "my project";
  Directives d = write_sge(j);
  EXPECT_EQ(d.text.find("-p "), std::string::npos) << d.text;
  EXPECT_NE(d.text.find("#$ -q all.q@node1\n"), std::string::npos) << d.text;
  ASSERT_EQ(d.losses.size(), 2u);
  EXPECT_FALSE(d.losses[0].nearest);  // the project: a backend refuses the job
  EXPECT_EQ(d.losses[0].what, "project (--account) 'my project'");
  EXPECT_TRUE(d.losses[1].nearest);  // the priority: the job runs as it would
  EXPECT_EQ(d.losses[1].why, "Grid Engine lets a user only lower a job's priority (-p from -1023 to 0); left out");
  j.spec.priority = -5000;
  d = write_sge(j);
  EXPECT_NE(d.text.find("#$ -p -1023\n"), std::string::npos) << d.text;
}

// Grid Engine puts values in for $HOME, $USER, $JOB_ID and its other pseudo variables in a
// path: one of the path's own text is written as it is, a loss.
TEST(GridEngineWriter, APathsOwnPseudoVariablesAreALoss) {
  Job j;
  j.spec.stdout_path = "$JOB_IDs/%j";
  j.spec.stderr_path = "$HOSTNAMES-%x.$TASK";
  const Directives d = write_sge(j);
  EXPECT_NE(d.text.find("#$ -o $JOB_IDs/$JOB_ID\n"), std::string::npos) << d.text;
  EXPECT_EQ(testing::losses(d),
            (std::vector<std::string>{"0: --output $JOB_IDs/%j: Grid Engine puts a value in for $JOB_ID in a file name "
                                      "and has no way to keep it as written; written as it is",
                                      "0: --error $HOSTNAMES-%x.$TASK: Grid Engine puts a value in for $HOSTNAME in a "
                                      "file name and has no way to keep it as written; written as it is"}));
}

// An array's tasks share its $JOB_ID (the array's id): an element's own %j is a loss.
TEST(GridEngineWriter, AnArraysTasksShareItsJobId) {
  Job j = testing::array_job();
  j.spec.stdout_path = "o-%j_%a", j.spec.stderr_path = "e-%A";
  const Directives d = write_sge(j);
  EXPECT_NE(d.text.find("#$ -o o-$JOB_ID_$TASK_ID\n#$ -e e-$JOB_ID\n"), std::string::npos) << d.text;
  EXPECT_EQ(testing::losses(d), (std::vector<std::string>{"0: --output o-%j_%a: %j: an element's own id: Grid Engine's "
                                                          "$JOB_ID is the array's; written as $JOB_ID"}));
}

}  // namespace
}  // namespace yard::jobtext
