// Slurm's commands as front ends to yard, with yard's Slurm backend behind them: a script
// given to yard's sbatch with -p slurm runs on the real Slurm 22.05 (the daemon, started
// from a shell whose PATH has yard's sbatch first, still runs Slurm's), and the srun in it
// is Slurm's own (a step on the allocation, its tasks started by slurmstepd), not yard's
// (which runs a step's tasks on the node itself: for jobs of the other backends).
#include "slurm_world.h"

namespace yard::test {
namespace {

TEST_F(SlurmWorld, AScriptGivenToYardsSbatchRunsOnSlurmAndItsStepsAreSlurms) {
  // slurmd sets SLURMD_NODENAME in the job and slurmstepd in a step's tasks; yard does not.
  write("job.sh", "#!/bin/bash\necho batch on ${SLURMD_NODENAME:-no slurmd}\n"
                  "srun -n 2 bash -c 'echo step task $SLURM_PROCID on ${SLURMD_NODENAME:-no slurmd} "
                  "${SLURM_SRUN_COMM_PORT:-no slurm srun}' | sort\n");
  Output where = yard({"slurm-commands", "path"});
  ASSERT_EQ(where.rc, 0) << where.err;
  const std::string commands = where.out.substr(0, where.out.find('\n'));
  int rc = 0;
  // The daemon is started by this sbatch, with the front ends first on its PATH.
  const std::string out =
      sh("cd '" + dir_ + "' && HOME='" + dir_ + "' XDG_RUNTIME_DIR='" + dir_ + "/run' XDG_STATE_HOME='" + dir_ +
             "/state' XDG_CONFIG_HOME='" + dir_ + "/config' PATH='" + commands + "':\"$PATH\" sbatch --parsable -p slurm -n 2 " +
             "-o job.out job.sh 2>&1",
         &rc);
  ASSERT_EQ(rc, 0) << out;
  const long id = std::stol(out);
  EXPECT_EQ(wait({id}), 0) << read("job.out") << diag();
  EXPECT_EQ(job(id)["backend"], "slurm");
  // One Slurm job for it (the accounting trails the controller by a moment).
  EXPECT_TRUE(wait_until([&] { return native_jobs_named(job(id)["uid"]) == 1; }, 60)) << diag();
  const std::string log = read("job.out");
  EXPECT_EQ(log.find("no slurmd"), std::string::npos) << log;
  // Slurm's srun sets SLURM_SRUN_COMM_PORT in its tasks; yard's does not (the batch
  // script's SLURMD_NODENAME alone cannot tell the two apart).
  EXPECT_EQ(log.find("no slurm srun"), std::string::npos) << log;
  EXPECT_NE(log.find("batch on "), std::string::npos) << log;
  EXPECT_NE(log.find("step task 0 on "), std::string::npos) << log;
  EXPECT_NE(log.find("step task 1 on "), std::string::npos) << log;
}

}  // namespace
}  // namespace yard::test
