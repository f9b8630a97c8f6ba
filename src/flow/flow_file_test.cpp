#include "flow/flow_file.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace yard {
namespace {

// A file of its own for each call: ctest runs these tests in parallel processes.
std::string write(const std::string& text) {
  static int n = 0;
  const std::string path = ::testing::TempDir() + "flow_file_test-" + std::to_string(::getpid()) + "-" +
                           std::to_string(++n) + ".yaml";
  std::ofstream(path) << text;
  return path;
}

// The steps of a file, or why it was refused.
Result<std::vector<FlowStep>> load_steps(const std::string& path, const std::string& base,
                                         const std::map<std::string, std::string>& env) {
  auto flow = load_flow(path, base, env);
  if (!flow) return flow.failure();
  return std::move(flow->steps);
}

TEST(RunFile, OrdersByDependencies) {
  auto jobs = load_steps(write("jobs:\n"
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
  auto bad = load_steps(write("jobs:\n  - name: a\n    command: x\n    mem: 12XB\n"), "/tmp", {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find(":4: mem"), std::string::npos) << bad.error();
  auto malformed = load_steps(write("jobs: [\n  - name: a\n"), "/tmp", {});
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
    auto r = load_steps(path, "/tmp", {});
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().rfind(path + ":", 0), 0u) << r.error();
    EXPECT_NE(r.error().find(says), std::string::npos) << r.error();
  }
  // A cycle of two is named step by step, from the line of the 'after' that closes it.
  auto two = load_steps(write("jobs:\n  - name: a\n    command: x\n    after: [c]\n  - name: c\n    command: z\n"
                                 "    after: [a]\n"),
                           "/tmp", {});
  ASSERT_FALSE(two.ok());
  EXPECT_TRUE(two.error().find(":4: after: a cycle: a -> c -> a") != std::string::npos ||
              two.error().find(":7: after: a cycle: c -> a -> c") != std::string::npos)
      << two.error();
}

TEST(RunFile, AnEmptyNameIsRefusedWithItsFileAndLine) {
  const std::string path = write("jobs:\n  - name: a\n    command: x\n  - name: \"\"\n    command: y\n");
  auto r = load_steps(path, "/tmp", {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find(path + ":4: job name is empty"), std::string::npos) << r.error();
}

TEST(RunFile, AnEmptyJobListLoadsAsNoJobs) {
  auto r = load_steps(write("jobs: []\n"), "/tmp", {});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_TRUE(r->empty());
}

// A job takes every flag of yard submit (partition, account, class, backend, sbatch's
// other options), as an #SBATCH line splits them or as a list; the other keys win; a bad
// flag names the file, the line and the flag.
TEST(RunFile, FlagsAreEveryFlagOfYardSubmit) {
  auto jobs = load_steps(write("jobs:\n"
                                  "  - name: a\n    command: ./sim\n"
                                  "    flags: -p cpu -t 1:00:00 --backend slurm -A 'my proj' --class big --exclusive -n 4\n"
                                  "    ntasks: 2\n"
                                  "  - name: b\n    command: [./b]\n    flags: [--qos, high, --mem=1G]\n"),
                            "/work", {{"A", "1"}});
  ASSERT_TRUE(jobs.ok()) << jobs.error();
  const FlowStep& a = (*jobs)[0];
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
  const FlowStep& b = (*jobs)[1];
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
    auto r = load_steps(write("jobs:\n  - name: a\n    command: x\n" + line), "/tmp", {});
    ASSERT_FALSE(r.ok()) << line;
    EXPECT_NE(r.error().find(expected), std::string::npos) << r.error();
  }
}

// Workflow files: steps with needs, foreach fan-out and fan-in, variables, files.
TEST(FlowFile, ForeachMakesAStepPerValueAndNeedsOfARuleAreAFanIn) {
  auto flow = load_flow(write("name: sweep\n"
                              "params: {size: 40}\n"
                              "steps:\n"
                              "  - name: prepare\n    command: echo {size} > in.txt\n"
                              "  - name: sim\n    foreach: {range: 1-5:2}\n    as: case\n"
                              "    command: [./sim, '{case}', '{name}', '{index}']\n    needs: [prepare]\n"
                              "  - name: check\n    foreach: [1, 3, 5]\n    command: test {item}\n"
                              "    needs: ['sim[{item}]']\n"
                              "  - name: reduce\n    command: cat\n    needs: [sim, check]\n"),
                        "/w", {{"A", "1"}});
  ASSERT_TRUE(flow.ok()) << flow.error();
  EXPECT_EQ(flow->name, "sweep");
  EXPECT_EQ(flow->env.at("A"), "1");
  std::vector<std::string> names;
  for (const auto& st : flow->steps) names.push_back(st.name);
  EXPECT_EQ(names, (std::vector<std::string>{"prepare", "sim[1]", "sim[3]", "sim[5]", "check[1]", "check[3]", "check[5]",
                                             "reduce"}));
  const auto& steps = flow->steps;
  EXPECT_EQ(steps[0].spec.argv, (std::vector<std::string>{"/bin/sh", "-c", "echo 40 > in.txt"}));
  EXPECT_EQ(steps[2].spec.argv, (std::vector<std::string>{"./sim", "3", "sim[3]", "1"}));
  EXPECT_EQ(steps[2].rule, "sim");
  EXPECT_EQ(steps[2].spec.name, "sim[3]");
  EXPECT_EQ(steps[2].needs, (std::vector<std::int32_t>{0}));
  EXPECT_EQ(steps[5].needs, (std::vector<std::int32_t>{2}));  // check[3] needs sim[3] alone
  EXPECT_EQ(steps[7].needs, (std::vector<std::int32_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(flow->edges(), 3u + 3u + 6u);
  EXPECT_TRUE(steps[0].spec.env.empty()) << "a step's environment is the flow's, not a copy";
}

TEST(FlowFile, AnInputMadeByAnotherStepIsANeedAndAMissingOneIsNamed) {
  const std::string dir = ::testing::TempDir() + "flow_files-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir + "/data");
  std::ofstream(dir + "/data/b.csv") << "b";
  std::ofstream(dir + "/data/a.csv") << "a";
  auto flow = load_flow(write("steps:\n"
                              "  - name: make\n    command: ./make\n    outputs: [out/table.txt, out/list.txt]\n"
                              "  - name: use\n    command: ./use\n    inputs: [out/table.txt, data/a.csv]\n"
                              "  - name: each\n    foreach: {glob: data/*.csv}\n    command: wc {item}\n"
                              "  - name: per\n    foreach: {outputs: make}\n    command: wc {item}\n"),
                        dir, {});
  ASSERT_TRUE(flow.ok()) << flow.error();
  const auto& s = flow->steps;
  ASSERT_EQ(s.size(), 6u);
  EXPECT_EQ(s[1].name, "use");
  EXPECT_EQ(s[1].needs, (std::vector<std::int32_t>{0}));
  EXPECT_EQ(s[1].inputs[0], dir + "/out/table.txt");
  EXPECT_EQ(s[2].name, "each[a.csv]");  // a glob's values sorted, named by file name
  EXPECT_EQ(s[2].spec.argv[2], "wc " + dir + "/data/a.csv");
  EXPECT_EQ(s[4].name, "per[table.txt]");
  EXPECT_EQ(s[4].needs, (std::vector<std::int32_t>{0}));
  const std::string path = write("steps:\n  - name: use\n    command: ./use\n    inputs: [nowhere.csv]\n");
  auto missing = load_flow(path, dir, {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), path + ":4: inputs: " + dir + "/nowhere.csv does not exist, and no step has it among its outputs");
}

TEST(FlowFile, DefaultsApplyToEveryStepAndAStepsOwnKeysWin) {
  auto flow = load_flow(write("defaults: {mem: 1G, time: '10', flags: -p cpu -A proj, output: 'logs/{name}.out'}\n"
                              "steps:\n"
                              "  - name: a\n    command: x\n"
                              "  - name: b\n    command: y\n    mem: 2G\n    flags: -p gpu\n"),
                        "/w", {});
  ASSERT_TRUE(flow.ok()) << flow.error();
  const auto& a = flow->steps[0].spec;
  const auto& b = flow->steps[1].spec;
  EXPECT_EQ(a.res.mem_bytes, 1ull << 30);
  EXPECT_EQ(a.res.walltime_s, 600);
  EXPECT_EQ(a.partition, "cpu");
  EXPECT_EQ(a.account, "proj");
  EXPECT_EQ(a.stdout_path, "logs/a.out");
  EXPECT_EQ(b.res.mem_bytes, 2ull << 30);
  EXPECT_EQ(b.partition, "gpu");
  EXPECT_EQ(b.account, "proj");
  EXPECT_EQ(b.stdout_path, "logs/b.out");
}

TEST(FlowFile, MistakesNameTheFileTheLineAndWhat) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"steps:\n  - name: a\n    command: echo {cse}\n", ":3: command: unknown variable {cse} (known: index, name"},
      {"steps:\n  - name: a\n    command: x\n    needs: [b]\n  - name: b\n    command: y\n    needs: [a]\n",
       ": needs: a cycle: a -> b -> a"},
      {"steps:\n  - name: a\n    command: x\n    needs: [zz]\n", ":4: needs: step 'a' needs unknown step 'zz'"},
      {"steps:\n  - name: 'a[1]'\n    command: x\n", ":2: step name 'a[1]' holds [, ], { or }"},
      {"steps:\n  - name: a\n    foreach: {range: 1-3%2}\n    command: x\n", ":3: foreach: range: a throttle"},
      {"steps:\n  - name: a\n    foreach: {outputs: b}\n    command: x\n", ":3: foreach: outputs: no step 'b' before"},
      {"steps:\n  - name: a\n    as: v\n    command: x\n", ":3: as: names the variable of a foreach"},
      {"steps:\n  - name: a\n    command: x\n    retries: 3\n", ":4: unknown key 'retries'"},
      {"steps:\n  - name: a\n    command: x\n    outputs: [o]\n  - name: b\n    command: y\n    outputs: [o]\n",
       ":5: outputs: /w/o is an output of a too"},
      {"defaults: {command: x}\nsteps: []\n", ":1: defaults: a command is each step's own"},
      {"params: {name: x}\nsteps: []\n", ":1: params: 'name' is each step's own variable"},
      {"stages: []\n", ": expected a mapping with a 'steps' list"},
  };
  for (const auto& [text, says] : cases) {
    const std::string path = write(text);
    auto r = load_flow(path, "/w", {});
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().rfind(path + ":", 0), 0u) << r.error();
    EXPECT_NE(r.error().find(says), std::string::npos) << r.error();
  }
  // The shell's own braces are left alone; {{ and }} are braces.
  auto shell = load_flow(write("steps:\n  - name: a\n    command: \"echo ${HOME} {a,b} | awk '{print $1}' {{x}}\"\n"),
                         "/w", {});
  ASSERT_TRUE(shell.ok()) << shell.error();
  EXPECT_EQ(shell->steps[0].spec.argv[2], "echo ${HOME} {a,b} | awk '{print $1}' {x}");
}

}  // namespace
}  // namespace yard
