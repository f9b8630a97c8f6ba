// Input that used to be accepted silently or misread: each is refused with exit status 2
// and a message naming the flag or value, and nothing is stored.
#include <sys/stat.h>

#include "harness.h"

namespace yard::test {
namespace {

class Input : public YardWorld {
 protected:
  // Runs each case, expecting exit 2 and `mention` in the message, then checks that the
  // store did not change.
  struct Case {
    std::vector<std::string> args;
    std::string mention;
  };
  void expect_refused(const std::vector<Case>& cases) {
    const auto before = status().size();
    for (auto& c : cases) {
      Output o = yard(c.args);
      std::string words;
      for (auto& a : c.args) words += a + " ";
      EXPECT_EQ(o.rc, 2) << words << "-> " << o.out << o.err;
      EXPECT_NE(o.err.find(c.mention), std::string::npos) << words << ": message '" << o.err << "' lacks '"
                                                          << c.mention << "'";
    }
    EXPECT_EQ(status().size(), before);
  }
};

TEST_F(Input, JobsLargerThanAnyCountOrTheMachineAreRefused) {
  configure("cpus: 2\nkill_grace: 1\n");
  ASSERT_EQ(wait({submit({"--", "true"})}), 0);  // the daemon and store exist from here on
  expect_refused({
      {{"submit", "-c", "2147483647", "-n", "2", "--", "true"}, "4294967294 CPUs"},
      {{"submit", "-c", "65536", "-n", "65536", "--", "true"}, "4294967296 CPUs"},
      {{"submit", "-c", "65536", "-n", "1", "--", "true"}, "this machine offers 2 CPUs"},
      {{"submit", "--mem-per-cpu", "1T", "-c", "46340", "-n", "46340", "--", "true"}, "--mem-per-cpu"},
      {{"submit", "-t", "307445734561825861", "--", "true"}, "longer than 100 years"},
  });
}

TEST_F(Input, EmptyValuesDirectoriesAndDanglingDirectivesAreRefused) {
  ASSERT_EQ(wait({submit({"--", "true"})}), 0);
  ::mkdir((dir_ + "/adir").c_str(), 0700);
  write("dangling.sh", "#!/bin/sh\n#SBATCH --mem\n#SBATCH -J x\ntrue\n");
  write("noname.yaml", "jobs:\n  - name: a\n    command: true\n  - name: \"\"\n    command: true\n");
  std::vector<Case> cases;
  for (std::string flag : {"--mem", "-t", "-a", "-o", "-d", "--export"})
    cases.push_back({{"submit", flag, "", "--", "true"}, "the value is empty"});
  cases.push_back({{"submit", "--mem", "", "--", "true"}, "--mem: "});
  cases.push_back({{"submit", "-t", "", "--", "true"}, "--time: "});
  cases.push_back({{"submit", "adir"}, "script 'adir' is a directory"});
  cases.push_back({{"submit", "dangling.sh"}, "dangling.sh:2: in #SBATCH directives: --mem: needs a value"});
  cases.push_back({{"run", "noname.yaml"}, "noname.yaml:4: job name is empty"});
  expect_refused(cases);
}

}  // namespace
}  // namespace yard::test
