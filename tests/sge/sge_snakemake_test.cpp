// Snakemake 7.21 (Debian's) runs a workflow with `--cluster "sbatch -p sge"` through Slurm's
// commands as front ends to yard: each rule a job on the real Grid Engine 8.1.9, found in
// its accounting, and the workflow's result as on the local backend (the README's example,
// tests/slurm-commands/test_snakemake.py).
#include "sge_world.h"

namespace yard::test {
namespace {

TEST_F(SgeWorld, SnakemakeRunsItsRulesOnGridEngineThroughSbatch) {
  write("Snakefile",
        "rule all:\n    input: \"summary.txt\"\n\n"
        "rule part:\n    output: \"part_{n}.txt\"\n    shell: \"echo part {wildcards.n} in Grid Engine job $JOB_ID > {output}\"\n\n"
        "rule summary:\n    input: expand(\"part_{n}.txt\", n=[1, 2])\n    output: \"summary.txt\"\n"
        "    shell: \"cat {input} > {output}\"\n");
  // Where the front ends are, from the yard this test runs (a copy its user can reach).
  Output where = yard({"slurm-commands", "path"});
  ASSERT_EQ(where.rc, 0) << where.err;
  const std::string commands = where.out.substr(0, where.out.find('\n'));
  const std::string env = "HOME='" + dir_ + "' XDG_RUNTIME_DIR='" + dir_ + "/run' XDG_STATE_HOME='" + dir_ +
                          "/state' XDG_CONFIG_HOME='" + dir_ + "/config' PATH='" + commands + "':\"$PATH\"";
  int rc = 0;
  const std::string out = sh("cd '" + dir_ + "' && export " + env +
                                 " && snakemake --cluster 'sbatch -p sge' --jobs 3 --latency-wait 60 2>&1",
                             &rc);
  ASSERT_EQ(rc, 0) << out << diag();
  // Snakemake is done when a job's script has written its marker, which is before Grid
  // Engine has ended the job and yard has seen it end (on a loaded machine, seconds).
  ASSERT_TRUE(all_ended(120)) << out << diag();
  // Each rule a job of yard's on Grid Engine, completed, and a Grid Engine job of its own.
  auto jobs = status();
  ASSERT_EQ(jobs.size(), 3u) << diag();
  for (auto& j : jobs) {
    EXPECT_EQ(j["backend"], "sge") << j.dump();
    EXPECT_EQ(j["state"], "COMPLETED") << j.dump();
    EXPECT_EQ(sge_jobs_named(j["uid"]), 1) << j.dump();
  }
  // The parts were written by Grid Engine jobs (its JOB_ID set in each).
  const std::string summary = read("summary.txt");
  EXPECT_NE(summary.find("part 1 in Grid Engine job "), std::string::npos) << summary;
  EXPECT_NE(summary.find("part 2 in Grid Engine job "), std::string::npos) << summary;
  EXPECT_EQ(summary.find("job \n"), std::string::npos) << summary;  // JOB_ID was set
}

}  // namespace
}  // namespace yard::test
