// Workflow files run for real (docs/WORKFLOWS.md): the documented example as written,
// its plan and graph, and a mistake refused with nothing submitted.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness.h"

namespace yard::test {
namespace {

class Flows : public YardWorld {};

const std::string kSweep = std::string(YARD_SOURCE_DIR) + "/examples/flows/sweep.yaml";

TEST_F(Flows, TheDocumentedSweepRunsAsWrittenEachStepAfterWhatItNeeds) {
  // The example as written but for its working directory, which is this world's instead of
  // /tmp/yard-sweep: the documentation's test (Docs.examples) runs the same example, maybe
  // at the same time.
  std::ifstream in(kSweep);
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  const auto at = yaml.find("/tmp/yard-sweep");
  ASSERT_NE(at, std::string::npos) << "examples/flows/sweep.yaml no longer works in /tmp/yard-sweep";
  const std::string work = dir_ + "/sweep-work";
  yaml.replace(at, std::string("/tmp/yard-sweep").size(), work);
  write("sweep.yaml", yaml);
  auto o = yard({"run", "sweep.yaml"}, {}, 300);
  ASSERT_EQ(o.rc, 0) << o.out << o.err;
  // sum(1..100) = 5050, times each case.
  EXPECT_EQ(read("sweep-work/summary.txt"), "5050\n10100\n15150\n20200\n");
  // Each step by its own name, its log where defaults: output: says.
  for (const auto* step : {"prepare", "simulate[1]", "simulate[4]", "check[2.txt]", "reduce"})
    EXPECT_TRUE(std::filesystem::exists(work + "/logs/" + step + ".out")) << step;
  auto all = status();
  ASSERT_EQ(all.size(), 10u);
  // A step started after every step it needs ended: reduce after the last check.
  double last_check_end = 0, reduce_start = 0;
  for (const auto& j : all) {
    const std::string name = j["name"];
    EXPECT_EQ(j["state"], "COMPLETED") << name;
    if (name.rfind("check[", 0) == 0) last_check_end = std::max(last_check_end, seconds(j["end_time"]));
    if (name == "reduce") reduce_start = seconds(j["start_time"]);
  }
  EXPECT_GE(reduce_start, last_check_end);
}

TEST_F(Flows, DryRunPrintsThePlanAndGraphPrintsDotAndMermaidSubmittingNothing) {
  auto plan = yard({"run", "--dry-run", kSweep});
  ASSERT_EQ(plan.rc, 0) << plan.err;
  EXPECT_NE(plan.out.find("flow sweep: 10 steps, 12 needs"), std::string::npos) << plan.out;
  EXPECT_NE(plan.out.find("6. check[1.txt]  (1 cpu, mem 64M, time 00:05:00, on local)\n     needs: simulate[1]\n"),
            std::string::npos)
      << plan.out;
  auto dot = yard({"flow", "graph", kSweep});
  ASSERT_EQ(dot.rc, 0) << dot.err;
  EXPECT_EQ(dot.out.rfind("digraph \"sweep\" {", 0), 0u) << dot.out;
  EXPECT_NE(dot.out.find("s0 -> s1;"), std::string::npos) << dot.out;  // prepare -> simulate[1]
  EXPECT_NE(dot.out.find("s8 -> s9;"), std::string::npos) << dot.out;  // check[4.txt] -> reduce
  auto mermaid = yard({"flow", "graph", "--format", "mermaid", kSweep});
  ASSERT_EQ(mermaid.rc, 0) << mermaid.err;
  EXPECT_NE(mermaid.out.find("s5[\"check[1.txt]\"]"), std::string::npos) << mermaid.out;
  EXPECT_NE(mermaid.out.find("s1 --> s5"), std::string::npos) << mermaid.out;
  EXPECT_EQ(status().size(), 0u) << "a dry run or a graph submitted something";
}

TEST_F(Flows, ACycleIsRefusedNamedStepByStepWithNothingSubmitted) {
  write("cycle.yaml", "steps:\n  - name: a\n    command: x\n    needs: [b]\n  - name: b\n    command: y\n"
                      "    needs: [a]\n");
  for (const std::vector<std::string>& args : {std::vector<std::string>{"run", "cycle.yaml"},
                                              std::vector<std::string>{"flow", "graph", "cycle.yaml"}}) {
    auto o = yard(args);
    EXPECT_EQ(o.rc, 2) << o.out << o.err;
    EXPECT_NE(o.err.find("cycle.yaml:4: needs: a cycle: a -> b -> a"), std::string::npos) << o.err;
  }
  EXPECT_EQ(status().size(), 0u);
}

// Steps that name no output log into a run directory of their own, never beside the
// flow's file (its source tree); --run-dir chooses it.
TEST_F(Flows, StepsWithoutAnOutputLogIntoARunDirectoryNotTheSourceTree) {
  std::filesystem::create_directories(dir_ + "/src");
  write("src/flow.yaml", "name: tidy\nsteps:\n  - name: a\n    command: echo hello from a\n"
                         "  - name: b\n    foreach: [x]\n    command: echo {item}\n    needs: [a]\n");
  auto o = yard({"run", "src/flow.yaml"});
  ASSERT_EQ(o.rc, 0) << o.out << o.err;
  const auto at = o.out.find("logs of steps without an output: in ");
  ASSERT_NE(at, std::string::npos) << o.out;
  const std::string run_dir = o.out.substr(at + 36, o.out.find('\n', at) - at - 36);
  EXPECT_EQ(run_dir.rfind(dir_ + "/state/switchyard/runs/tidy-", 0), 0u) << run_dir;
  EXPECT_EQ(sh("cat '" + run_dir + "/a.out'"), "hello from a\n");
  EXPECT_EQ(sh("cat '" + run_dir + "/b[x].out'"), "x\n");
  for (const auto& entry : std::filesystem::directory_iterator(dir_ + "/src"))
    EXPECT_EQ(entry.path().filename(), "flow.yaml") << "the source tree got " << entry.path();
  o = yard({"run", "--run-dir", "mine", "--rerun", "a", "src/flow.yaml"});
  ASSERT_EQ(o.rc, 0) << o.out << o.err;
  EXPECT_EQ(read("mine/a.out"), "hello from a\n");
}

TEST_F(Flows, RunJsonPrintsTheFlowEachStateChangeAndTheEndAsJsonLines) {
  write("j.yaml",
        "name: lines\n"
        "steps:\n"
        "  - name: a\n"
        "    command: \"true\"\n"
        "  - name: b\n"
        "    needs: [a]\n"
        "    command: exit 3\n");
  auto o = yard({"run", "--json", "j.yaml"});
  EXPECT_EQ(o.rc, 1) << o.out << o.err;
  std::vector<nlohmann::json> lines;
  std::istringstream in(o.out);
  for (std::string line; std::getline(in, line);) {
    try {
      lines.push_back(nlohmann::json::parse(line));
    } catch (const std::exception& e) {
      FAIL() << "not a JSON line: " << line;
    }
  }
  ASSERT_GE(lines.size(), 3u) << o.out;
  const auto& flow = lines.front();
  EXPECT_EQ(flow["event"], "flow");
  EXPECT_EQ(flow["name"], "lines");
  EXPECT_EQ(flow["submitted"], 2);
  ASSERT_EQ(flow["steps"].size(), 2u);
  EXPECT_EQ(flow["steps"][1]["name"], "b");
  EXPECT_EQ(flow["steps"][1]["origin"], "submitted");
  const long b = flow["steps"][1]["ids"][0];
  // b's end among the job events, with its cause.
  bool b_failed = false;
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    EXPECT_EQ(lines[i]["event"], "job") << lines[i].dump();
    if (lines[i]["job"] == std::to_string(b) && lines[i]["state"] == "FAILED") {
      b_failed = true;
      EXPECT_EQ(lines[i]["detail"], "exit code 3");
      EXPECT_GT(seconds(lines[i]["time"]), 0);
    }
  }
  EXPECT_TRUE(b_failed) << o.out;
  const auto& end = lines.back();
  EXPECT_EQ(end["event"], "end");
  EXPECT_EQ(end["failed"], 1);
  ASSERT_EQ(end["jobs"].size(), 2u);
  EXPECT_EQ(end["jobs"][1]["state"], "FAILED");
  EXPECT_TRUE(std::filesystem::exists(end["report"].get<std::string>()));
  // A file without steps: still two lines a program can read.
  write("empty.yaml", "steps: []\n");
  o = yard({"run", "--json", "empty.yaml"});
  EXPECT_EQ(o.rc, 0) << o.err;
  std::istringstream empty(o.out);
  std::string first, second;
  std::getline(empty, first);
  std::getline(empty, second);
  EXPECT_EQ(nlohmann::json::parse(first)["event"], "flow") << o.out;
  EXPECT_EQ(nlohmann::json::parse(second)["jobs"].size(), 0u) << o.out;
}

}  // namespace
}  // namespace yard::test
