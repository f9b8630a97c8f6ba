// `yard submit --test-only`: the job checked and shown as it would be submitted, nothing
// stored or started; exit 0 when it would be accepted, 2 for bad flags or scripts, 1 for
// a valid job the backend could never run.
#include <filesystem>

#include "harness.h"

namespace yard::test {
namespace {

class TestOnly : public YardWorld {};

TEST_F(TestOnly, AnAcceptableJobIsShownWithEveryResolvedFieldAndNothingIsStored) {
  configure("cpus: 2\n");
  write("job.sh", "#!/bin/sh\n#SBATCH -J from-script\n#SBATCH -t 5\n#SBATCH -o out-%j.txt\ntouch ran\n");
  Output o = yard({"submit", "--test-only", "--json", "-c", "2", "job.sh", "arg"});
  ASSERT_EQ(o.rc, 0) << o.out << o.err;
  auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["accepted"], true);
  EXPECT_EQ(j["backend"], "local");
  EXPECT_EQ(j["job"]["name"], "from-script");       // from the script's directives
  EXPECT_EQ(j["job"]["walltime_s"], 300);
  EXPECT_EQ(j["job"]["cpus_per_task"], 2);          // from the command line
  EXPECT_EQ(j["job"]["stdout"], "out-%j.txt");
  EXPECT_EQ(j["job"]["argv"], (nlohmann::json{"arg"}));  // the script's arguments; its text:
  EXPECT_NE(j["job"]["script"].get<std::string>().find("touch ran"), std::string::npos);
  // The readable form says the same.
  Output text = yard({"submit", "--test-only", "-c", "2", "job.sh"});
  ASSERT_EQ(text.rc, 0) << text.err;
  EXPECT_NE(text.out.find("would be accepted by backend local"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  name: from-script\n"), std::string::npos) << text.out;
  // Nothing was stored, nothing ran.
  EXPECT_EQ(status().size(), 0u);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/ran"));
}

TEST_F(TestOnly, BadInputIsExit2AndAJobTooLargeForTheBackendIsExit1) {
  configure("cpus: 2\n");
  Output bad = yard({"submit", "--test-only", "--mem", "12XB", "--", "true"});
  EXPECT_EQ(bad.rc, 2) << bad.err;
  EXPECT_NE(bad.err.find("--mem"), std::string::npos) << bad.err;
  Output unknown_dep = yard({"submit", "--test-only", "-d", "afterok:999", "--", "true"});
  EXPECT_EQ(unknown_dep.rc, 2) << unknown_dep.err;
  Output inexpressible = yard({"submit", "--test-only", "--backend", "sge", "--qos", "high", "--", "true"});
  EXPECT_EQ(inexpressible.rc, 2) << inexpressible.err;
  EXPECT_NE(inexpressible.err.find("--qos: backend sge"), std::string::npos) << inexpressible.err;
  Output big = yard({"submit", "--test-only", "-c", "64", "--", "true"});
  EXPECT_EQ(big.rc, 1) << big.err;
  EXPECT_NE(big.err.find("this machine offers 2 CPUs"), std::string::npos) << big.err;
  Output nodes = yard({"submit", "--test-only", "-N", "3", "--", "true"});
  EXPECT_EQ(nodes.rc, 1) << nodes.err;
  EXPECT_EQ(status().size(), 0u);
}

// What a cluster's batch script can say only nearly is said when the job is checked, as
// yard translate says it: the job is accepted, with a warning.
TEST_F(TestOnly, ANearEquivalentInTheBatchScriptIsWarnedOf) {
  Output near = yard({"submit", "--test-only", "--backend", "lsf", "-t", "0:01:30", "--", "true"});
  ASSERT_EQ(near.rc, 0) << near.err;
  EXPECT_NE(near.err.find("yard submit: warning: --time 90s: LSF's -W counts minutes; rounded up"), std::string::npos)
      << near.err;
  Output exact = yard({"submit", "--test-only", "--backend", "lsf", "-t", "0:02:00", "--", "true"});
  ASSERT_EQ(exact.rc, 0) << exact.err;
  EXPECT_EQ(exact.err.find("warning"), std::string::npos) << exact.err;
}

}  // namespace
}  // namespace yard::test
