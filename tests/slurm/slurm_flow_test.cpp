// Flows on the real Slurm (docs/WORKFLOWS.md): a step tried again for a cause its policy
// lists, read from Slurm's accounting, its dependent held until its last try; a flow
// whose `yard run` was killed taken over by the next run, no step submitted twice
// (counted in Slurm's own accounting), and a run of the finished flow submitting nothing;
// a foreach as one Slurm array, and grouped steps run in series in one. A "World" suite: it runs beside the cluster the CTest
// fixture starts, never under the sanitizers (scripts/test.sh).
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "slurm_world.h"

namespace yard::test {
namespace {

class SlurmFlowWorld : public SlurmWorld {
 protected:
  std::map<std::string, nlohmann::json> by_name() {
    std::map<std::string, nlohmann::json> jobs;
    for (auto& j : status()) jobs[j["name"]] = j;
    return jobs;
  }
  int lines(const std::string& file, const std::string& line) {
    std::istringstream in(read(file));
    int n = 0;
    for (std::string l; std::getline(in, l);) n += l == line;
    return n;
  }
};

TEST_F(SlurmFlowWorld, AStepTriedAgainForAListedExitAndItsDependentWaitsForItsLastTry) {
  write("f.yaml",
        "name: retried\n"
        "defaults: {flags: --backend slurm}\n"
        "steps:\n"
        "  - name: flaky\n"  // exit 3 on its first try only
        "    command: echo try >> tries; [ $(wc -l < tries) -ge 2 ] || exit 3\n"
        "    retry: {times: 2, exit: [3]}\n"
        "  - name: after\n"
        "    needs: [flaky]\n"
        "    command: echo after > after.txt\n");
  auto o = yard({"run", "f.yaml"}, {}, 240);
  ASSERT_EQ(o.rc, 0) << o.out << o.err << diag();
  EXPECT_EQ(lines("tries", "try"), 2);
  EXPECT_EQ(read("after.txt"), "after\n");
  auto jobs = by_name();
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs["flaky"]["state"], "COMPLETED");
  EXPECT_EQ(jobs["flaky"]["retries"], 1);
  EXPECT_EQ(jobs["after"]["state"], "COMPLETED");
  // Two Slurm jobs under the flaky step's one UID, one for its dependent.
  // (Slurm's accounting is written a moment after the job ends.)
  const std::string flaky = jobs["flaky"]["uid"], after = jobs["after"]["uid"];
  EXPECT_TRUE(wait_until([&] { return native_jobs_named(flaky) >= 2 && native_jobs_named(after) >= 1; }, 30));
  EXPECT_EQ(native_jobs_named(flaky), 2);
  EXPECT_EQ(native_jobs_named(after), 1);
  auto history = yard({"watch", "--no-follow", std::to_string(jobs["flaky"]["id"].get<long>())});
  EXPECT_NE(history.out.find("retry 1/2 after FAILED (exit 3) of slurm job"), std::string::npos) << history.out;
}

TEST_F(SlurmFlowWorld, AKilledYardRunIsTakenOverAndNoStepIsSubmittedTwice) {
  write("chain.yaml",
        "name: chain\n"
        "defaults: {flags: --backend slurm}\n"
        "steps:\n"
        "  - name: a\n"
        "    command: echo a >> ran.log; while [ ! -e go ]; do sleep 0.2; done\n"
        "  - name: b\n"
        "    needs: [a]\n"
        "    command: echo b >> ran.log\n");
  const std::string file = dir_ + "/chain.yaml";
  Output first;
  std::thread run([&] { first = yard({"run", file}, {}, 300); });
  // Joined on every way out: a failed assertion lets the flow's job go (file `go`).
  struct Joiner {
    std::string go;
    std::thread& t;
    ~Joiner() {
      if (!t.joinable()) return;
      std::ofstream{go};
      t.join();
    }
  } join_first{dir_ + "/go", run};
  ASSERT_TRUE(wait_until([&] { return lines("ran.log", "a") == 1; }, 120)) << diag();
  const long pid = pid_running({"run", file});
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
  run.join();
  EXPECT_EQ(first.rc, 137);
  // Run again while step a runs on Slurm: taken over, then let go on.
  Output second;
  std::thread again([&] { second = yard({"run", file}, {}, 300); });
  Joiner join_second{dir_ + "/go", again};
  ASSERT_TRUE(wait_until([&] { return yard({"flow", "list"}).out.find("chain") != std::string::npos; }, 30));
  write("go", "");
  again.join();
  ASSERT_EQ(second.rc, 0) << second.out << second.err << diag();
  EXPECT_EQ(lines("ran.log", "a"), 1);
  EXPECT_EQ(lines("ran.log", "b"), 1);
  auto jobs = by_name();
  ASSERT_EQ(jobs.size(), 2u) << status().dump();
  const std::string a = jobs["a"]["uid"], b = jobs["b"]["uid"];
  EXPECT_TRUE(wait_until([&] { return native_jobs_named(a) >= 1 && native_jobs_named(b) >= 1; }, 30));
  EXPECT_EQ(native_jobs_named(a), 1);
  EXPECT_EQ(native_jobs_named(b), 1);
  // The finished flow again: every step up to date, nothing submitted.
  auto third = yard({"run", file}, {}, 60);
  EXPECT_EQ(third.rc, 0) << third.out << third.err;
  EXPECT_EQ(status().size(), 2u);
  EXPECT_EQ(lines("ran.log", "a"), 1);
}

TEST_F(SlurmFlowWorld, TheStepsOfAForeachAreOneSlurmArrayEachAStepOfItsOwn) {
  write("sweep.yaml",
        "name: sweep\n"
        "defaults: {flags: --backend slurm}\n"
        "steps:\n"
        "  - name: sim\n"
        "    foreach: {range: 1-4}\n"
        "    command: echo {item} > out{item}.txt; [ ! -e fail{item} ] || exit 5\n"
        "  - name: sum\n"
        "    needs: [sim]\n"
        "    command: cat out*.txt > sum.txt\n");
  write("fail3", "");
  auto o = yard({"run", "--run-dir", "run", "sweep.yaml"}, {}, 240);
  EXPECT_EQ(o.rc, 1) << o.out << o.err << diag();
  auto jobs = status();
  ASSERT_EQ(jobs.size(), 5u) << jobs.dump();
  std::set<std::string> bases;
  for (auto& j : jobs) {
    if (j["name"] == "sum") {
      EXPECT_EQ(j["state"], "CANCELLED") << j.dump();
      continue;
    }
    ASSERT_TRUE(j["native_id"].is_string()) << j.dump();
    const std::string native = j["native_id"];
    bases.insert(native.substr(0, native.find('_')));
    const long index = j["array_task_id"];
    EXPECT_EQ(native, *bases.begin() + "_" + std::to_string(index));
    EXPECT_EQ(j["state"], index == 3 ? "FAILED" : "COMPLETED") << j.dump();
    EXPECT_EQ(j["exit_code"], index == 3 ? 5 : 0);
    EXPECT_EQ(read("out" + std::to_string(index) + ".txt"), std::to_string(index) + "\n");
  }
  EXPECT_EQ(bases.size(), 1u) << "one sbatch for the four steps";
  for (int i : {1, 4}) EXPECT_EQ(read("run/sim_" + std::to_string(i) + ".out"), "");
  // Again: the three that completed are up to date (the array's first element is that
  // step alone, not the array), the failed one and what needs it run.
  std::filesystem::remove(dir_ + "/fail3");
  o = yard({"run", "sweep.yaml"}, {}, 240);
  EXPECT_EQ(o.rc, 0) << o.out << o.err << diag();
  EXPECT_NE(o.out.find("flow 2: 5 steps, 2 submitted, 0 running already, 3 up to date"), std::string::npos) << o.out;
  EXPECT_EQ(read("sum.txt"), "1\n2\n3\n4\n");
}


// group: 3 on Slurm: six steps are two carriers, elements of one Slurm array (one
// sbatch), each step a job of its own with its own state, exit code and log, and the
// step after them waiting on all six.
TEST_F(SlurmFlowWorld, GroupedStepsRunInSeriesInOneSlurmArrayEachWithItsOwnStateAndLog) {
  write("series.yaml",
        "name: series\n"
        "defaults: {flags: --backend slurm}\n"
        "steps:\n"
        "  - name: tiny\n"
        "    foreach: {range: 1-6}\n"
        "    group: 3\n"
        "    command: echo tiny {item}; echo {item} >> ran.txt; [ {item} != 4 ] || exit 6\n"
        "  - name: sum\n"
        "    needs: [tiny]\n"
        "    command: sort ran.txt > sum.txt\n");
  auto o = yard({"run", "--run-dir", "run", "series.yaml"}, {}, 240);
  EXPECT_EQ(o.rc, 1) << o.out << o.err << diag();
  // The run is over when its steps are; the carriers end on Slurm a moment later.
  ASSERT_TRUE(all_ended(120)) << diag();
  auto jobs = by_name();
  std::set<std::string> bases;
  int carriers = 0;
  for (auto& j : status()) {
    if (j["name"] != "tiny.series") continue;
    ++carriers;
    EXPECT_EQ(j["backend"], "slurm") << j.dump();
    EXPECT_EQ(j["state"], "COMPLETED") << j.dump();
    ASSERT_TRUE(j["native_id"].is_string()) << j.dump();
    const std::string native = j["native_id"];
    bases.insert(native.substr(0, native.find('_')));
  }
  EXPECT_EQ(carriers, 2) << status().dump();
  EXPECT_EQ(bases.size(), 1u) << "one sbatch for the six steps";
  for (int i = 1; i <= 6; ++i) {
    const std::string name = "tiny[" + std::to_string(i) + "]";
    ASSERT_TRUE(jobs.count(name)) << name;
    EXPECT_EQ(jobs[name]["backend"], "series");
    EXPECT_EQ(jobs[name]["state"], i == 4 ? "FAILED" : "COMPLETED") << jobs[name].dump();
    EXPECT_EQ(jobs[name]["exit_code"], i == 4 ? 6 : 0) << jobs[name].dump();
    EXPECT_EQ(read("run/" + name + ".out"), "tiny " + std::to_string(i) + "\n");
    EXPECT_EQ(lines("ran.txt", std::to_string(i)), 1) << "step " << i << " ran once";
  }
  EXPECT_EQ(jobs["sum"]["state"], "CANCELLED") << jobs["sum"].dump();
}

}  // namespace
}  // namespace yard::test
