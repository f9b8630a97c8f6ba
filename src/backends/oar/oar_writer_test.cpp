// The #OAR writer: the resource hierarchy as yard's OAR backend asks for it, one unquoted value a line, -a, --array N, -t.
#include <gtest/gtest.h>

#include "backends/oar/oar_language.h"
#include "jobtext/writer_testing.h"

namespace yard::jobtext {
namespace {

TEST(OarWriter, AFullJobAndAnArray) {
  testing::expect_directives(write_oar(testing::full_job()),
      "#OAR -n alpha\n"
      "#OAR -l /nodes=2/core=8,walltime=1:30:00\n"
      "#OAR -q short\n"
      "#OAR --project proj1\n"
      "#OAR -O out-%jobid%.txt\n"
      "#OAR -E err-%jobid%.txt\n"
      "#OAR -a 42\n"
      "#OAR -a 43\n",
      {"0: --cpus-per-task 2: OAR counts cores: 8 tasks of 2 CPUs, written as 16 cores",
       "0: --mem-per-cpu 1G: OAR has no memory request; left out",
       "0: --dependency afterok:42: OAR waits for a job's end however it ends (-a); written as afterany"});
  testing::expect_directives(write_oar(testing::array_job()),
      "#OAR -l /nodes=1/core=4,walltime=0:10:00\n"
      "#OAR -O out-%arrayid%_%arrayindex%.out\n"
      "#OAR --array 10\n",
      {"0: --cpus-per-task 4: OAR counts cores: 1 task of 4 CPUs, written as 4 cores",
       "0: --mem 8G: OAR has no memory request; left out",
       "0: --output out-%A_%a.out: OAR writes stderr to a file of its own (OAR.%jobid%.stderr), not with stdout",
       "0: --array %3: OAR has no limit on an array's running elements; left out"});
}

TEST(OarWriter, GpusUnevenCoresTypesAndValuesItCannotHold) {
  Job j;
  j.name_given = true;
  j.spec.name = " padded";
  j.spec.res.nodes = 2, j.spec.res.ntasks = 5, j.spec.res.gpus = 2;
  j.spec.job_types = {"besteffort", "idempotent"};
  j.spec.stderr_path = "e-%j";
  testing::expect_directives(write_oar(j),
      "#OAR -l /nodes=2/gpu=1/core=3\n"
      "#OAR -E e-%jobid%\n"
      "#OAR -t besteffort\n"
      "#OAR -t idempotent\n",
      {"0: --job-name ' padded': an #OAR line cannot hold blanks at its ends; left out",
       "0: --ntasks 5: 5 CPUs cannot be spread evenly over 2 nodes (OAR gives each host the "
       "same number of cores); rounded up"});
}

// oarsub puts values in for %jobid% and its other patterns: one of a path's own text is
// written as it is, a loss.
TEST(OarWriter, APathsOwnPatternsAreALoss) {
  Job j;
  j.spec.stdout_path = "%%jobid%%.%j";
  j.spec.stderr_path = "100%%";
  const Directives d = write_oar(j);
  EXPECT_NE(d.text.find("#OAR -O %jobid%.%jobid%\n#OAR -E 100%\n"), std::string::npos) << d.text;
  EXPECT_EQ(testing::losses(d), (std::vector<std::string>{"0: --output %%jobid%%.%j: OAR puts a value in for %jobid% in "
                                                          "a file name and has no way to keep it as written; written as it is"}));
}

}  // namespace
}  // namespace yard::jobtext
