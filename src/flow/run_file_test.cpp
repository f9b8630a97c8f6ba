#include "flow/run_file.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

namespace yard {
namespace {

// A file of its own for each call: ctest runs these tests in parallel processes.
std::string write(const std::string& text) {
  static int n = 0;
  const std::string path = ::testing::TempDir() + "run_file_test-" + std::to_string(::getpid()) + "-" +
                           std::to_string(++n) + ".yaml";
  std::ofstream(path) << text;
  return path;
}

TEST(RunFile, OrdersByDependencies) {
  auto jobs = load_run_file(write("jobs:\n"
                                  "  - name: b\n    command: echo b\n    after: [a]\n    time: '5'\n"
                                  "  - name: a\n    command: [\"/bin/true\"]\n    array: 1-3%2\n"),
                            "/tmp", {});
  ASSERT_TRUE(jobs.ok()) << jobs.error();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0].name, "a");
  EXPECT_EQ((*jobs)[1].spec.argv, (std::vector<std::string>{"/bin/sh", "-c", "echo b"}));
  EXPECT_EQ((*jobs)[1].spec.res.walltime_s, 300);
  EXPECT_EQ((*jobs)[0].spec.array->max_running, 2);
}

TEST(RunFile, ErrorsNameFileLineAndKey) {
  auto bad = load_run_file(write("jobs:\n  - name: a\n    command: x\n    mem: 12XB\n"), "/tmp", {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find(":4: mem"), std::string::npos) << bad.error();
  auto malformed = load_run_file(write("jobs: [\n  - name: a\n"), "/tmp", {});
  ASSERT_FALSE(malformed.ok());
  EXPECT_NE(malformed.error().find("malformed YAML"), std::string::npos);
  // Each of these names the file, the line and what is wrong there.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"jobs:\n  - name: a\n    command: x\n    after: [a]\n", ":4: after: a cycle: a -> a"},
      {"jobs:\n  - name: a\n    command: x\n    after: [c]\n  - name: b\n    command: y\n"
       "  - name: c\n    command: z\n    after: [a]\n",
       ": after: a cycle: "},
      {"jobs:\n  - name: a\n    command: x\n    colour: red\n", ":4: unknown key 'colour'"},
      {"jobs:\n  - name: a\n    command: x\n    after: [zz]\n", ":4: after: job 'a' waits for unknown job 'zz'"},
  };
  for (const auto& [text, says] : cases) {
    const std::string path = write(text);
    auto r = load_run_file(path, "/tmp", {});
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().rfind(path + ":", 0), 0u) << r.error();
    EXPECT_NE(r.error().find(says), std::string::npos) << r.error();
  }
  // A cycle of two is named step by step, from the line of the 'after' that closes it.
  auto two = load_run_file(write("jobs:\n  - name: a\n    command: x\n    after: [c]\n  - name: c\n    command: z\n"
                                 "    after: [a]\n"),
                           "/tmp", {});
  ASSERT_FALSE(two.ok());
  EXPECT_TRUE(two.error().find(":4: after: a cycle: a -> c -> a") != std::string::npos ||
              two.error().find(":7: after: a cycle: c -> a -> c") != std::string::npos)
      << two.error();
}

TEST(RunFile, AnEmptyNameIsRefusedWithItsFileAndLine) {
  const std::string path = write("jobs:\n  - name: a\n    command: x\n  - name: \"\"\n    command: y\n");
  auto r = load_run_file(path, "/tmp", {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find(path + ":4: job name is empty"), std::string::npos) << r.error();
}

TEST(RunFile, AnEmptyJobListLoadsAsNoJobs) {
  auto r = load_run_file(write("jobs: []\n"), "/tmp", {});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_TRUE(r->empty());
}

// A job takes every flag of yard submit (partition, account, class, backend, sbatch's
// other options), as an #SBATCH line splits them or as a list; the other keys win; a bad
// flag names the file, the line and the flag.
TEST(RunFile, FlagsAreEveryFlagOfYardSubmit) {
  auto jobs = load_run_file(write("jobs:\n"
                                  "  - name: a\n    command: ./sim\n"
                                  "    flags: -p cpu -t 1:00:00 --backend slurm -A 'my proj' --class big --exclusive -n 4\n"
                                  "    ntasks: 2\n"
                                  "  - name: b\n    command: [./b]\n    flags: [--qos, high, --mem=1G]\n"),
                            "/work", {{"A", "1"}});
  ASSERT_TRUE(jobs.ok()) << jobs.error();
  const RunJob& a = (*jobs)[0];
  EXPECT_EQ(a.spec.partition, "cpu");
  EXPECT_EQ(a.spec.res.walltime_s, 3600);
  EXPECT_EQ(a.spec.backend, "slurm");
  EXPECT_EQ(a.spec.account, "my proj");
  EXPECT_EQ(a.job_class, "big");
  EXPECT_EQ(a.spec.slurm_options, (SbatchSettings{{"exclusive", ""}}));
  EXPECT_EQ(a.spec.res.ntasks, 2);  // the key wins over -n 4
  EXPECT_EQ(a.spec.name, "a");
  EXPECT_EQ(a.spec.workdir, "/work");
  EXPECT_EQ(a.spec.argv, (std::vector<std::string>{"/bin/sh", "-c", "./sim"}));
  const RunJob& b = (*jobs)[1];
  EXPECT_EQ(b.spec.qos, "high");
  EXPECT_EQ(b.spec.res.mem_bytes, 1ull << 30);
  EXPECT_EQ(b.job_class, "");
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"    flags: --mem 12XB\n", ":4: flags: --mem"},
      {"    flags: -n 2 ./other\n", ":4: flags: './other': a job's command is its command: key"},
      {"    flags: --chdir /x\n", ":4: flags: --chdir: give the job's chdir: key"},
      {"    flags: \"-p 'cpu\"\n", ":4: flags: "},
  };
  for (const auto& [line, expected] : bad) {
    auto r = load_run_file(write("jobs:\n  - name: a\n    command: x\n" + line), "/tmp", {});
    ASSERT_FALSE(r.ok()) << line;
    EXPECT_NE(r.error().find(expected), std::string::npos) << r.error();
  }
}

}  // namespace
}  // namespace yard
