// The direct-mode test (direct_world.h): a job of the scheduler's starts a daemon, which
// runs a yard job of 2 tasks as a step of it; the step sees that job's id and its own
// node file of its 2 slots in the scheduler's variable.
#include "direct_world.h"

#include <filesystem>

namespace yard::test {
namespace {

TEST_P(LifeCycleDirectWorld, JobsRunAsStepsOfTheJobTheDaemonRunsIn) {
  const DirectUnderTest& d = *GetParam();
  const std::string yard_bin = YARD_BINARY;
  // The world's own HOME and XDG directories, as the harness gives `yard`.
  const std::string env = "export HOME='" + dir_ + "' XDG_RUNTIME_DIR='" + dir_ + "/run' XDG_STATE_HOME='" + dir_ +
                          "/state' XDG_CONFIG_HOME='" + dir_ + "/config'\n";
  write("inner.sh", "#!/bin/bash\ncd '" + dir_ + "' || exit 1\n" + env + "y='" + yard_bin +
                        "'\n"
                        "\"$y\" server start > inner.log 2>&1 || { echo 'server start failed' > result; exit 1; }\n"
                        "id=$(\"$y\" submit --backend " + d.backend +
                        " -n 2 -- sh -c 'echo \"$" + d.id_variable + " $(wc -l < \"$" + d.hostfile_variable +
                        "\") $(wc -l < \"$YARD_NODEFILE\")\"' 2>> inner.log)\n"
                        "\"$y\" wait \"$id\" >> inner.log 2>&1; rc=$?\n"
                        "{ echo \"rc=$rc\"; \"$y\" logs \"$id\"; echo \"outer=$" + d.id_variable +
                        "\"; } > result.tmp 2>> inner.log\n"
                        "\"$y\" server stop >> inner.log 2>&1\n"
                        "mv result.tmp result\n");
  int rc = 0;
  const std::string submitted = sh("cd '" + dir_ + "' && sh -c '" + d.submit + "' sh inner.sh 2>&1", &rc);
  ASSERT_EQ(rc, 0) << submitted;
  ASSERT_TRUE(wait_until([&] { return std::filesystem::exists(dir_ + "/result"); }, 180))
      << submitted << "\ninner.log:\n" << sh("cat '" + dir_ + "/inner.log' 2>&1");
  const std::string result = read("result");
  std::istringstream in(result);
  std::string status, step_line, outer;
  std::getline(in, status);
  std::getline(in, step_line);
  std::getline(in, outer);
  EXPECT_EQ(status, "rc=0") << result << sh("cat '" + dir_ + "/inner.log'");
  ASSERT_EQ(outer.rfind("outer=", 0), 0u) << result;
  const std::string outer_id = outer.substr(6);
  EXPECT_FALSE(outer_id.empty()) << result;
  // The step sees the job it runs in, and a node file of its own 2 slots.
  EXPECT_EQ(step_line, outer_id + " 2 2") << result;
}

}  // namespace
}  // namespace yard::test
