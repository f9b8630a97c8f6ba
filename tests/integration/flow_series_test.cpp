// Steps run in series (docs/WORKFLOWS.md, "Packing": `group: N`) on the local backend: N
// steps of a foreach one after another in one job, each step still a job of its own with
// its own state, exit code and log; a run again submits only what did not complete;
// cancelling a step waiting its turn skips it, cancelling one that runs stops its
// carrier; a daemon killed mid-series loses no step and runs none twice.
#include <signal.h>

#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "harness.h"

namespace yard::test {
namespace {

class FlowSeries : public YardWorld {
 protected:
  // How often each step ran: one line per run in ran.log.
  std::map<std::string, int> runs() { return line_counts(read("ran.log")); }
  nlohmann::json by_name() {
    nlohmann::json out = nlohmann::json::object();
    for (auto& j : status()) out[j["name"].get<std::string>()] = j;
    return out;
  }
  // The gated steps go on (the file `go`), and the `yard run` following them ends.
  void let_go(std::thread& runner) {
    write("go", "");
    if (runner.joinable()) runner.join();
  }
  // Whatever fails, the run is let end and joined: a thread left joinable would abort
  // the test program and hide the failure.
  struct Released {
    std::function<void()> end;
    ~Released() { end(); }
  };
  std::string state_of(const std::string& name) {
    auto all = by_name();
    return all.contains(name) ? all[name]["state"].get<std::string>() : "";
  }
};

TEST_F(FlowSeries, GroupedStepsRunInFewJobsEachWithItsOwnStateExitAndLog) {
  write("sweep.yaml",
        "steps:\n"
        "  - name: sim\n"
        "    foreach: {range: 1-7}\n"
        "    group: 3\n"
        "    command: echo sim{item} >> ran.log; echo out {item}; test {item} != 5 || exit 3\n"
        "  - name: all\n"
        "    needs: [sim]\n"
        "    command: echo all >> ran.log\n");
  auto o = yard({"run", "--run-dir", "run", "sweep.yaml"}, {}, 120);
  EXPECT_EQ(o.rc, 1) << o.out << o.err;  // sim[5] failed, so `all` never ran
  ASSERT_TRUE(all_ended(60)) << status().dump();  // the carriers end just after their last step
  auto jobs = by_name();
  for (int i = 1; i <= 7; ++i) {
    const std::string name = "sim[" + std::to_string(i) + "]";
    ASSERT_TRUE(jobs.contains(name)) << jobs.dump();
    EXPECT_EQ(jobs[name]["backend"], "series") << jobs[name].dump();
    EXPECT_EQ(jobs[name]["state"], i == 5 ? "FAILED" : "COMPLETED") << jobs[name].dump();
    EXPECT_EQ(jobs[name]["exit_code"], i == 5 ? 3 : 0) << jobs[name].dump();
    EXPECT_EQ(read("run/" + name + ".out"), "out " + std::to_string(i) + "\n");
    EXPECT_EQ(jobs[name]["stdout"], dir_ + "/run/" + name + ".out") << "its log, as yard logs finds it";
  }
  EXPECT_EQ(jobs["all"]["state"], "CANCELLED") << jobs["all"].dump();
  // Seven steps, three carriers (3 + 3 + 1), elements of one array on the local backend.
  std::set<std::int64_t> arrays;
  int carriers = 0;
  for (auto& j : status())
    if (j["name"] == "sim.series") {
      ++carriers;
      EXPECT_EQ(j["state"], "COMPLETED") << j.dump();
      arrays.insert(j["array_job_id"].get<std::int64_t>());
    }
  EXPECT_EQ(carriers, 3);
  EXPECT_EQ(arrays.size(), 1u);
  std::map<std::string, int> each_once;
  for (int i = 1; i <= 7; ++i) each_once["sim" + std::to_string(i)] = 1;
  EXPECT_EQ(runs(), each_once);

  // Run again: only the failed step (alone now: a job of its own) and `all`.
  o = yard({"run", "--run-dir", "run", "sweep.yaml"}, {}, 120);
  EXPECT_NE(o.out.find("2 submitted, 0 running already, 6 up to date"), std::string::npos) << o.out << o.err;
  each_once["sim5"] = 2;
  EXPECT_EQ(runs(), each_once);
}

TEST_F(FlowSeries, CancellingAWaitingStepSkipsItAndCancellingARunningOneStopsItsCarrier) {
  configure("cpus: 2\njob_limit: 1\n");
  write("gated.yaml",
        "steps:\n"
        "  - name: s\n"
        "    foreach: [a, b, c]\n"
        "    group: 3\n"
        "    command: echo {item} >> ran.log; while [ ! -e go ]; do sleep 0.05; done\n");
  Output run;
  std::thread runner([&] { run = yard({"run", "--run-dir", "run", "gated.yaml"}, {}, 120); });
  Released joined{[&] { let_go(runner); }};
  ASSERT_TRUE(wait_until([&] { return state_of("s[a]") == "RUNNING"; }, 60)) << status().dump();
  auto jobs = by_name();
  EXPECT_EQ(jobs["s[c]"]["state"], "PENDING");
  // The last step, waiting its turn: cancelled at once, and never run.
  auto c = yard({"cancel", std::to_string(jobs["s[c]"]["id"].get<long>())});
  ASSERT_EQ(c.rc, 0) << c.out << c.err;
  EXPECT_EQ(state_of("s[c]"), "CANCELLED");
  // The running one: its carrier stops, and the step after it with it.
  c = yard({"cancel", std::to_string(jobs["s[a]"]["id"].get<long>())});
  ASSERT_EQ(c.rc, 0) << c.out << c.err;
  ASSERT_TRUE(wait_until([&] { return state_of("s[a]") == "CANCELLED" && state_of("s[b]") == "CANCELLED"; }, 60))
      << status().dump();
  EXPECT_EQ(state_of("s.series"), "CANCELLED");
  EXPECT_EQ(by_name()["s[b]"]["reason"].get<std::string>().find("before its turn") != std::string::npos, true)
      << by_name()["s[b]"].dump();
  let_go(runner);
  EXPECT_EQ(runs(), (std::map<std::string, int>{{"a", 1}}));
}

TEST_F(FlowSeries, TheDaemonKilledMidSeriesLosesNoStepAndRunsNoneTwice) {
  write("gated.yaml",
        "steps:\n"
        "  - name: s\n"
        "    foreach: [a, b, c, d]\n"
        "    group: 4\n"
        "    command: echo {item} >> ran.log; while [ ! -e go ]; do sleep 0.05; done\n");
  Output run;
  std::thread runner([&] { run = yard({"run", "--run-dir", "run", "gated.yaml"}, {}, 120); });
  Released joined{[&] { let_go(runner); }};
  ASSERT_TRUE(wait_until([&] { return runs()["a"] == 1; }, 60));
  const long pid = daemon_pid();
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 10));
  let_go(runner);  // yard run starts the daemon again and follows the flow to its end
  ASSERT_EQ(run.rc, 0) << run.out << run.err;
  for (const char* s : {"s[a]", "s[b]", "s[c]", "s[d]"}) {
    EXPECT_EQ(state_of(s), "COMPLETED") << s;
    EXPECT_EQ(by_name()[s]["stdout"], dir_ + "/run/" + s + ".out") << "its log, read from its spec after the restart";
  }
  EXPECT_EQ(runs(), (std::map<std::string, int>{{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}}));
  auto again = yard({"run", "--run-dir", "run", "gated.yaml"});
  EXPECT_NE(again.out.find("0 submitted, 0 running already, 4 up to date"), std::string::npos) << again.out;
}

// pack: {under: 20s} with steps of time: 0:05 runs them four at a time; steps longer
// than the span are not put in series.
TEST_F(FlowSeries, PackUnderRunsAsManyStepsInSeriesAsTheirTimeFits) {
  write("sweep.yaml",
        "steps:\n"
        "  - name: short\n"
        "    foreach: {range: 1-8}\n"
        "    pack: {under: 20s}\n"
        "    time: \"0:05\"\n"
        "    command: echo short{item} >> ran.log\n"
        "  - name: long\n"
        "    foreach: [a, b]\n"
        "    pack: {under: 20s}\n"
        "    time: 1\n"
        "    command: echo long{item} >> ran.log\n");
  auto plan = yard({"run", "--dry-run", "sweep.yaml"});
  EXPECT_NE(plan.out.find("1. short[1]  (1 cpu, time 00:00:05, on local, in series 4 a job)\n"), std::string::npos)
      << plan.out;
  EXPECT_NE(plan.out.find("long[a]  (1 cpu, time 00:01:00, on local)\n"), std::string::npos) << plan.out;
  auto o = yard({"run", "--run-dir", "run", "sweep.yaml"}, {}, 120);
  ASSERT_EQ(o.rc, 0) << o.out << o.err;
  std::map<std::string, int> carriers;
  for (auto& j : status()) {
    const auto name = j["name"].get<std::string>();
    if (name.ends_with(".series")) ++carriers[name];
    else if (name.starts_with("short[")) EXPECT_EQ(j["backend"], "series") << j.dump();
    else EXPECT_EQ(j["backend"], "local") << j.dump();  // a minute each: no series in 20 s
  }
  EXPECT_EQ(carriers, (std::map<std::string, int>{{"short.series", 2}}));
  std::map<std::string, int> each_once;
  for (int i = 1; i <= 8; ++i) each_once["short" + std::to_string(i)] = 1;
  each_once["longa"] = each_once["longb"] = 1;
  EXPECT_EQ(runs(), each_once);
}

TEST_F(FlowSeries, ABadGroupOrPackUnderIsRefusedNamingItsLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"steps:\n  - name: s\n    foreach: [a]\n    group: 0\n    command: x\n",
       "bad.yaml:4: group: expected a number of steps from 1 to 100000, got '0'"},
      {"steps:\n  - name: s\n    foreach: [a]\n    group: many\n    command: x\n",
       "bad.yaml:4: group: expected a number of steps from 1 to 100000, got 'many'"},
      {"steps:\n  - name: s\n    group: 3\n    command: x\n",
       "bad.yaml:3: group: only a step with foreach: has steps to group"},
      {"steps:\n  - name: s\n    foreach: [a]\n    pack: false\n    group: 3\n    command: x\n",
       "bad.yaml:5: group: and pack: false do not go together"},
      {"steps:\n  - name: s\n    foreach: [a]\n    group: 3\n    retry: 2\n    command: x\n",
       "bad.yaml:4: group: steps run one after another in one job are not tried again one by one"},
      {"steps:\n  - name: s\n    foreach: [a]\n    group: 3\n    output: o.txt\n    command: x\n",
       "steps in series log into the run's directory"},
      {"steps:\n  - name: s\n    foreach: [a]\n    pack: {under: 1m}\n    command: x\n",
       "bad.yaml:4: step 's[a]': pack: {under: ...} counts the steps that fit by their time:, and this step has none"},
      {"steps:\n  - name: s\n    foreach: [a]\n    pack: {under: soon}\n    time: 1\n    command: x\n",
       "bad.yaml:4: pack: under: 'soon' is not a time (30s, 5m, 1h, or 1:00:00)"},
      {"steps:\n  - name: s\n    foreach: [a]\n    pack: {over: 1m}\n    time: 1\n    command: x\n",
       "bad.yaml:4: pack: unknown key 'over' (pack: {under: 60s})"},
      {"steps:\n  - name: s\n    pack: {under: 1m}\n    time: 1\n    command: x\n",
       "bad.yaml:3: pack: {under: ...}: only a step with foreach: has steps to group"},
      {"steps:\n  - name: s\n    foreach: [a]\n    pack: {under: 1m}\n    group: 2\n    time: 1\n    command: x\n",
       "bad.yaml:5: group: and pack: {under: ...} both say how many steps run in series: give one"},
      {"steps:\n  - name: s\n    foreach: [a]\n    pack: {under: 1m}\n    time: \"0:10\"\n    retry: 2\n    command: x\n",
       "bad.yaml:4: pack: steps run one after another in one job are not tried again one by one"},
  };
  for (const auto& [text, message] : cases) {
    write("bad.yaml", text);
    auto o = yard({"run", "bad.yaml"});
    EXPECT_EQ(o.rc, 2) << text << o.out << o.err;
    EXPECT_NE(o.err.find(message), std::string::npos) << text << o.err;
  }
  EXPECT_TRUE(status().empty());
}

}  // namespace
}  // namespace yard::test
