// The HTCondor writer: a submit description running the script itself, one machine's request, queue N or an index list.
#include <gtest/gtest.h>

#include "translate/translate_testing.h"
#include "translate/writers.h"

namespace yard::translate {
namespace {

TEST(HtCondorWriter, AFullJobAndAnArray) {
  testing::expect_directives(write_htcondor(testing::full_job(), "job.sh"),
      "# HTCondor submit description: condor_submit FILE (written by yard translate)\n"
      "universe = vanilla\n"
      "executable = job.sh\n"
      "batch_name = alpha\n"
      "request_cpus = 16\n"
      "request_memory = 16G\n"
      "allowed_job_duration = 5400\n"
      "output = out-$(Cluster).txt\n"
      "error = err-$(Cluster).txt\n"
      "accounting_group = proj1\n"
      "getenv = true\n"
      "queue\n",
      {"0: --nodes 2: an HTCondor job runs on one machine; left out",
       "0: --ntasks 8: an HTCondor job is one process tree: its 16 CPUs are request_cpus",
       "0: --partition short: HTCondor has no queues (it matches machines instead); left out",
       "0: --dependency afterok:42: HTCondor has no dependencies outside DAGMan; left out",
       "0: --dependency afterany:43: HTCondor has no dependencies outside DAGMan; left out"});
  testing::expect_directives(write_htcondor(testing::array_job(), "job.sh"),
      "# HTCondor submit description: condor_submit FILE (written by yard translate)\n"
      "universe = vanilla\n"
      "executable = job.sh\n"
      "request_cpus = 4\n"
      "request_memory = 8G\n"
      "allowed_job_duration = 600\n"
      "output = out-$(Cluster)_$(ArrayIndex).out\n"
      "error = out-$(Cluster)_$(ArrayIndex).out\n"
      "getenv = true\n"
      "max_materialize = 3\n"
      "queue ArrayIndex in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)\n",
      {});
}

TEST(HtCondorWriter, ZeroBasedArraysEnvironmentAndMail) {
  Job j;
  j.spec.array = ArraySpec{{0, 1, 2, 3}, 0};
  j.spec.stdout_path = "o-%a";
  j.spec.stderr_path = "e-%a";
  j.spec.priority = 3;
  j.options = {{"mail-type", "FAIL"}, {"mail-user", "me@x.org"}};
  j.exports = "ALL,A=1,B=x y";
  j.chdir = "/scratch";
  testing::expect_directives(write_htcondor(j, "../job.sh"),
      "# HTCondor submit description: condor_submit FILE (written by yard translate)\n"
      "universe = vanilla\n"
      "executable = ../job.sh\n"
      "output = o-$(Process)\n"
      "error = e-$(Process)\n"
      "initialdir = /scratch\n"
      "getenv = true\n"
      "environment = \"A=1 B='x y'\"\n"
      "priority = 3\n"
      "notification = Error\n"
      "notify_user = me@x.org\n"
      "queue 4\n",
      {});
}

}  // namespace
}  // namespace yard::translate
