// Packing (docs/WORKFLOWS.md, "Packing") on the local backend, which starts jobs at once:
// the steps of a foreach stay jobs of their own there (a cluster packs them:
// tests/slurm/slurm_flow_test.cpp); `pack:` is read and checked.
#include "harness.h"

namespace yard::test {
namespace {

class FlowPack : public YardWorld {};

TEST_F(FlowPack, OnTheLocalBackendTheStepsOfAForeachStayJobsOfTheirOwn) {
  write("sweep.yaml",
        "steps:\n"
        "  - name: sim\n"
        "    foreach: [a, b, c]\n"
        "    command: echo {item}\n"
        "  - name: apart\n"
        "    foreach: [a, b]\n"
        "    pack: false\n"
        "    command: echo {item}\n");
  auto o = yard({"run", "--run-dir", "run", "sweep.yaml"}, {}, 60);
  EXPECT_EQ(o.rc, 0) << o.out << o.err;
  auto all = status();
  ASSERT_EQ(all.size(), 5u);
  for (auto& j : all) EXPECT_TRUE(j["array_job_id"].is_null()) << j.dump();
  EXPECT_EQ(read("run/sim[b].out"), "b\n");
  write("bad.yaml", "steps:\n  - name: s\n    foreach: [a]\n    pack: maybe\n    command: x\n");
  o = yard({"run", "bad.yaml"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_NE(o.err.find("bad.yaml:4: pack: expected true, false or {under: 60s}, got 'maybe'"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace yard::test
