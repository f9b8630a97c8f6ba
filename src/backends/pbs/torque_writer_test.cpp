// The #PBS writer for Torque: nodes=N:ppn=P (processors, a task's CPUs among them), -t lists, -d, -n.
#include <gtest/gtest.h>

#include "backends/pbs/pbs_language.h"
#include "jobtext/writer_testing.h"

namespace yard::jobtext {
namespace {

TEST(TorqueWriter, AFullJobAndAnArray) {
  testing::expect_directives(write_torque(testing::full_job()),
      "#PBS -N alpha\n"
      "#PBS -l nodes=2:ppn=8\n"
      "#PBS -l pmem=1gb\n"
      "#PBS -q short\n"
      "#PBS -A proj1\n"
      "#PBS -l walltime=1:30:00\n"
      "#PBS -o out-${PBS_JOBID}.txt\n"
      "#PBS -e err-${PBS_JOBID}.txt\n"
      "#PBS -W depend=afterok:42,afterany:43\n"
      "#PBS -V\n",
      {"0: --cpus-per-task 2: Torque counts processors per node (ppn): 8 tasks of 2 CPUs, written as 16 processors"});
  testing::expect_directives(write_torque(testing::array_job()),
      "#PBS -l nodes=1:ppn=4\n"
      "#PBS -l mem=8gb\n"
      "#PBS -l walltime=0:10:00\n"
      "#PBS -o out-${PBS_JOBID}_${PBS_ARRAYID}.out\n"
      "#PBS -j oe\n"
      "#PBS -V\n"
      "#PBS -t 1-10%3\n",
      {"0: --cpus-per-task 4: Torque counts processors per node (ppn): 1 task of 4 CPUs, written as 4 processors",
       "0: --output out-%A_%a.out: %A: PBS has no variable for an array's id; written as ${PBS_JOBID}, an element's own"});
}

TEST(TorqueWriter, UnevenProcessorsDirectoryExclusiveAndSteps) {
  Job j;
  j.spec.res.nodes = 2, j.spec.res.ntasks = 5, j.spec.res.mem_bytes = 2 * testing::kGiB;
  j.options = {{"exclusive", ""}};
  j.spec.array = ArraySpec{{1, 3, 5, 6, 7}, 2};
  j.chdir = "/scratch";
  j.exports = "NONE";
  testing::expect_directives(write_torque(j),
      "#PBS -l nodes=1:ppn=3+1:ppn=2\n"
      "#PBS -l mem=4gb\n"
      "#PBS -n\n"
      "#PBS -j oe\n"
      "#PBS -t 1,3,5-7%2\n"
      "#PBS -d /scratch\n",
      {});  // --export NONE: no -V nor -v
}

}  // namespace
}  // namespace yard::jobtext
