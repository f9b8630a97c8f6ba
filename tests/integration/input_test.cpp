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
      {{"submit", "--mem-per-cpu", "1T", "-c", "46340", "-n", "46340", "--", "true"}, "--mem-per-cpu"},
      {{"submit", "-t", "307445734561825861", "--", "true"}, "longer than 100 years"},
  });
  // Valid, but larger than the machine: a failure (1), as sbatch's "Requested node
  // configuration is not available", and nothing stored.
  const auto before = status().size();
  Output o = yard({"submit", "-c", "65536", "-n", "1", "--", "true"});
  EXPECT_EQ(o.rc, 1) << o.out << o.err;
  EXPECT_NE(o.err.find("this machine offers 2 CPUs"), std::string::npos) << o.err;
  EXPECT_EQ(status().size(), before);
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

TEST_F(Input, ARunFileWithNoJobsSubmitsNothingAndReturnsAtOnce) {
  const long other = submit({"--", "sleep", "300"});  // `run` used to follow every job in the store
  write("empty.yaml", "jobs: []\n");
  Output o = yard({"run", "empty.yaml"}, {}, 30);
  EXPECT_EQ(o.rc, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("empty.yaml has no steps: nothing submitted"), std::string::npos) << o.out;
  EXPECT_EQ(status().size(), 1u);
  EXPECT_EQ(yard({"cancel", std::to_string(other)}).rc, 0);
}

TEST_F(Input, ArrayElementsAreNamedAsStatusPrintsThem) {
  const long id = submit({"-a", "1-2", "--", "sh", "-c", "echo element $YARD_ARRAY_TASK_ID"});
  const std::string first = std::to_string(id) + "_1", second = std::to_string(id) + "_2";
  Output w = yard({"wait", "--timeout", "120", second});
  ASSERT_EQ(w.rc, 0) << w.err;
  EXPECT_EQ(w.out, second + " COMPLETED\n");
  Output s = yard({"status", "--json", first});
  ASSERT_EQ(s.rc, 0) << s.err;
  auto j = nlohmann::json::parse(s.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["array_task_id"], 1);
  Output table = yard({"status", first, second});
  EXPECT_EQ(table.rc, 0) << table.err;
  EXPECT_NE(table.out.find(first + " "), std::string::npos) << table.out;
  ASSERT_EQ(wait({id}), 0);
  Output logs = yard({"logs", second});
  EXPECT_EQ(logs.rc, 0) << logs.err;
  EXPECT_EQ(logs.out, "element 2\n");
  Output unknown = yard({"status", std::to_string(id) + "_7"});
  EXPECT_EQ(unknown.rc, 2);
  EXPECT_NE(unknown.err.find("no job " + std::to_string(id) + "_7"), std::string::npos) << unknown.err;
  Output bad = yard({"wait", "12_x"});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("invalid job id '12_x'"), std::string::npos) << bad.err;
}

TEST_F(Input, CancelCancelsTheKnownIdsAndReportsEachUnknownOne) {
  configure("cpus: 2\nkill_grace: 1\n");
  const long good = submit({"--", "sleep", "300"});
  const long array = submit({"-a", "0-2", "--", "sleep", "300"});
  auto state = [&](const std::string& ref) {
    Output o = yard({"status", "--json", ref});
    auto j = o.rc == 0 ? nlohmann::json::parse(o.out) : nlohmann::json::array();
    return j.size() == 1 ? j[0]["state"].get<std::string>() : std::string("?");
  };
  ASSERT_TRUE(wait_until([&] { return state(std::to_string(good)) == "RUNNING"; }, 60));
  Output o = yard({"cancel", std::to_string(good), "999999"});
  EXPECT_EQ(o.rc, 1) << o.err;
  EXPECT_NE(o.err.find("no job 999999"), std::string::npos) << o.err;
  EXPECT_TRUE(wait_until([&] { return state(std::to_string(good)) == "CANCELLED"; }, 60));
  // One element by ID_INDEX; the others go on.
  const std::string a = std::to_string(array);
  o = yard({"cancel", a + "_2"});
  EXPECT_EQ(o.rc, 0) << o.err;
  EXPECT_TRUE(wait_until([&] { return state(a + "_2") == "CANCELLED"; }, 60));
  EXPECT_NE(state(a + "_1"), "CANCELLED");
  // The first element's id is the array's: alone it cannot be cancelled while others run.
  o = yard({"cancel", a + "_0"});
  EXPECT_EQ(o.rc, 2) << o.err;
  EXPECT_NE(o.err.find("cannot be cancelled alone"), std::string::npos) << o.err;
  EXPECT_NE(state(a + "_0"), "CANCELLED");
  EXPECT_EQ(yard({"cancel", a}).rc, 0);
  EXPECT_TRUE(wait_until([&] { return state(a + "_0") == "CANCELLED" && state(a + "_1") == "CANCELLED"; }, 60));
  o = yard({"cancel", "999998", "999999"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_NE(o.err.find("no job 999998\nyard cancel: no job 999999"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace yard::test

namespace yard::test {
namespace {

// A script, run file or description that is not a regular file is refused before a byte
// is read: /dev/zero would fill the login node's memory, a FIFO block for ever.
TEST_F(Input, FilesThatAreNotRegularAreRefusedNamingTheirType) {
  ASSERT_EQ(::mkfifo((dir_ + "/ff").c_str(), 0600), 0);
  write("zero.sub", "executable = /dev/zero\nqueue\n");
  for (const auto& [args, mention] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"submit", "--test-only", "/dev/zero"}, "'/dev/zero' is a character device, not a file that can be read whole"},
           {{"submit", "ff"}, "is a FIFO, not a file that can be read whole"},
           {{"translate", "--to", "pbs", "ff"}, "is a FIFO, not a file that can be read whole"},
           {{"translate", "--from", "htcondor", "--to", "slurm", "zero.sub"}, "is a character device"},
           {{"run", "ff"}, "is a FIFO"},
       }) {
    Output o = yard(args, {}, 60);  // a read that never ends is killed, and fails the test
    std::string words;
    for (auto& a : args) words += a + " ";
    EXPECT_EQ(o.rc, 2) << words << "-> " << o.err;
    EXPECT_NE(o.err.find(mention), std::string::npos) << words << "-> " << o.err;
  }
}

}  // namespace
}  // namespace yard::test
