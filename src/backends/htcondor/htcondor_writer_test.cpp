// The HTCondor writer: a submit description running the script itself, one machine's request, queue N or an index list.
#include <gtest/gtest.h>

#include "backends/htcondor/htcondor_language.h"
#include "jobtext/writer_testing.h"

namespace yard::jobtext {
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

// Without getenv the job gets no variable of the submitter's (HTCondor's default): NONE,
// or the variables getenv names and environment sets.
TEST(HtCondorWriter, AnEnvironmentOtherThanTheWholeOne) {
  Job j;
  j.exports = "NONE";
  EXPECT_EQ(write_htcondor(j, "job.sh").text.find("getenv"), std::string::npos);
  EXPECT_TRUE(write_htcondor(j, "job.sh").losses.empty());
  j.exports = "A,B=2,C_3,D-4";
  const Directives d = write_htcondor(j, "job.sh");
  EXPECT_NE(d.text.find("getenv = A, C_3\nenvironment = \"B=2\"\n"), std::string::npos) << d.text;
  EXPECT_EQ(testing::losses(d),
            (std::vector<std::string>{"0: --export D-4: getenv takes names of letters, digits and _; left out"}));
  j.exports = "ALL,A,B=2";
  EXPECT_NE(write_htcondor(j, "job.sh").text.find("getenv = true\nenvironment = \"B=2\"\n"), std::string::npos);
}

// condor_submit puts its macros in every value: a '$' of the job's own is $(DOLLAR), two
// are $$(DOLLARDOLLAR) (a "$$(" left in the job would be the machine's attribute).
TEST(HtCondorWriter, EveryDollarOfTheJobsOwnIsAMacro) {
  Job j;
  j.name_given = true;
  j.spec.name = "a$(id)";
  j.spec.account = "g$";
  j.chdir = "/d/$HOME";
  j.spec.stdout_path = "o$$(x)-%j";
  j.exports = "B=$(id)";
  j.options = {{"mail-user", "u$@x"}};
  testing::expect_directives(write_htcondor(j, "job$.sh"),
      "# HTCondor submit description: condor_submit FILE (written by yard translate)\n"
      "universe = vanilla\n"
      "executable = job$(DOLLAR).sh\n"
      "batch_name = a$(DOLLAR)(id)\n"
      "output = o$$(DOLLARDOLLAR)(x)-$(Cluster)\n"
      "error = o$$(DOLLARDOLLAR)(x)-$(Cluster)\n"
      "accounting_group = g$(DOLLAR)\n"
      "initialdir = /d/$(DOLLAR)HOME\n"
      "environment = \"B=$(DOLLAR)(id)\"\n"
      "notify_user = u$(DOLLAR)@x\n"
      "queue\n",
      {});
}

}  // namespace
}  // namespace yard::jobtext
