// Packing (docs/WORKFLOWS.md, "Packing"): the steps of one foreach that differ only in
// their command run as one array, each element a step with its own state, exit code and
// log, found again under its own key by the next run; `pack: false` keeps them apart.
#include <filesystem>
#include <map>

#include "harness.h"

namespace yard::test {
namespace {

class FlowPack : public YardWorld {
 protected:
  std::map<std::string, nlohmann::json> steps_of(long flow) {
    auto o = yard({"flow", "status", "--json", std::to_string(flow)});
    std::map<std::string, nlohmann::json> steps;
    try {
      const auto record = nlohmann::json::parse(o.out);
      for (const auto& s : record["step_list"]) steps[s["name"].get<std::string>()] = s;
    } catch (...) {
      ADD_FAILURE() << o.out << o.err;
    }
    EXPECT_FALSE(steps.empty()) << o.out << o.err;
    return steps;
  }
};

constexpr const char* kSweep =
    "name: sweep\n"
    "steps:\n"
    "  - name: sim\n"
    "    foreach: {range: 1-5}\n"
    "    command: echo sim {item}; echo {item} > out{item}.txt; [ ! -e fail{item} ] || exit 7\n"
    "  - name: sum\n"
    "    needs: [sim]\n"
    "    command: cat out*.txt > sum.txt\n";

TEST_F(FlowPack, StepsOfAForeachRunAsOneArrayEachWithItsOwnStateExitAndLog) {
  write("sweep.yaml", kSweep);
  write("fail4", "");
  auto o = yard({"run", "--run-dir", "run", "sweep.yaml"}, {}, 120);
  EXPECT_EQ(o.rc, 1) << o.out << o.err;
  std::map<std::string, nlohmann::json> jobs;
  long array = 0;
  for (auto& j : status()) {
    jobs[j["name"].get<std::string>() + (j["array_task_id"].is_null() ? "" : std::to_string(j["array_task_id"].get<long>()))] = j;
    if (j["name"] == "sim") array = j["array_job_id"].get<long>();
  }
  ASSERT_EQ(jobs.size(), 6u) << status().dump();
  for (int i = 1; i <= 5; ++i) {
    const auto& j = jobs["sim" + std::to_string(i)];
    EXPECT_EQ(j["array_job_id"], array) << j.dump();
    EXPECT_EQ(j["state"], i == 4 ? "FAILED" : "COMPLETED") << j.dump();
    EXPECT_EQ(j["exit_code"], i == 4 ? 7 : 0);
    EXPECT_EQ(read("run/sim_" + std::to_string(i) + ".out"), "sim " + std::to_string(i) + "\n");
  }
  EXPECT_EQ(jobs["sum"]["state"], "CANCELLED");
  auto steps = steps_of(1);
  EXPECT_EQ(steps["sim[4]"]["state"], "FAILED");
  EXPECT_EQ(steps["sim[3]"]["state"], "COMPLETED");
  EXPECT_EQ(steps["sim[1]"]["jobs"], 1);  // the array's first element is that step alone
  // Again: the four that completed are up to date, the failed one runs again.
  std::filesystem::remove(dir_ + "/fail4");
  o = yard({"run", "sweep.yaml"}, {}, 120);
  EXPECT_EQ(o.rc, 0) << o.out << o.err;
  steps = steps_of(2);
  EXPECT_EQ(steps["sim[1]"]["origin"], "up-to-date");
  EXPECT_EQ(steps["sim[5]"]["origin"], "up-to-date");
  EXPECT_EQ(steps["sum"]["state"], "COMPLETED");
}

TEST_F(FlowPack, PackFalseKeepsEachStepAJobOfItsOwn) {
  write("apart.yaml",
        "steps:\n"
        "  - name: sim\n"
        "    foreach: [a, b, c]\n"
        "    pack: false\n"
        "    command: echo {item}\n");
  auto o = yard({"run", "apart.yaml"}, {}, 60);
  EXPECT_EQ(o.rc, 0) << o.out << o.err;
  auto all = status();
  ASSERT_EQ(all.size(), 3u);
  for (auto& j : all) EXPECT_TRUE(j["array_job_id"].is_null()) << j.dump();
  write("bad.yaml", "steps:\n  - name: s\n    foreach: [a]\n    pack: maybe\n    command: x\n");
  o = yard({"run", "bad.yaml"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_NE(o.err.find("bad.yaml:4: pack: expected true or false, got 'maybe'"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace yard::test
