// The variables a cluster job's wrapper sets (job_wrapper.h, job_variables), run by bash:
// an array element's own yard id from the scheduler's index, evenly spaced or not;
// Slurm's variables only for a job of Slurm's commands as front ends.
#include <cstdio>

#include <gtest/gtest.h>

#include "backends/job_wrapper.h"
#include "core/array_spec.h"
#include "core/shell_quote.h"
#include "core/slurm_variables.h"

namespace yard {
namespace {

// What `lines` export, run by bash with TASK set to `index`: "$YARD_JOB_ID $SLURM_JOB_ID".
std::string run(const std::string& lines, const std::string& index) {
  const std::string script = "TASK=" + index + "\n" + lines + "echo \"$YARD_JOB_ID ${SLURM_JOB_ID-none} $YARD_ARRAY_JOB_ID\"";
  FILE* p = ::popen(("bash -c " + bash_quote(script)).c_str(), "r");
  if (!p) return "popen failed";
  char buf[256] = {};
  std::string out = std::fgets(buf, sizeof buf, p) ? buf : "";
  ::pclose(p);
  return out;
}

JobSpec array_spec(const std::string& indices) {
  JobSpec spec;
  spec.name = "j";
  spec.workdir = "/tmp";
  spec.array = parse_array_spec(indices).value();
  return spec;
}

TEST(JobVariables, AnElementGetsItsOwnIdEvenlySpacedOrNot) {
  SubmitContext ctx;
  ctx.uid = "yd0011";
  ctx.job_id = 10;
  const auto even = job_variables(array_spec("2-8:3"), ctx, "TASK", true);
  EXPECT_EQ(run(even, "2"), "10 none 10\n");
  EXPECT_EQ(run(even, "8"), "12 none 10\n");
  const auto uneven = job_variables(array_spec("1,3,4,9"), ctx, "TASK", true);
  EXPECT_EQ(run(uneven, "3"), "11 none 10\n");
  EXPECT_EQ(run(uneven, "9"), "13 none 10\n");
}

TEST(JobVariables, SlurmsOnlyForAJobOfSlurmsCommandsAndNothingWithoutAnId) {
  JobSpec spec;
  spec.name = "j";
  spec.workdir = "/tmp";
  SubmitContext ctx;
  ctx.uid = "yd0011";
  ctx.job_id = 7;
  EXPECT_EQ(run(job_variables(spec, ctx, "TASK", true), "0"), "7 none \n");
  spec.env[kSlurmVariablesWanted] = "1";
  EXPECT_EQ(run(job_variables(spec, ctx, "TASK", true), "0"), "7 7 \n");
  EXPECT_EQ(run(job_variables(spec, ctx, "TASK", false), "0"), "7 none \n");  // Slurm sets its own
  // The front ends' mark goes where yard sets Slurm's variables (yard's srun would take a
  // SLURM_JOB_ID with the mark for a real Slurm's job), and stays on Slurm.
  const auto mark = [&](bool slurm_too) {
    return run("export YARD_SLURM_VARIABLES=1\n" + job_variables(spec, ctx, "TASK", slurm_too) +
                   "YARD_JOB_ID=${YARD_SLURM_VARIABLES-gone}\n",
               "0");
  };
  EXPECT_EQ(mark(true), "gone 7 \n");
  EXPECT_EQ(mark(false), "1 none \n");
  ctx.job_id = 0;
  EXPECT_EQ(job_variables(spec, ctx, "TASK", true), "");
}

}  // namespace
}  // namespace yard
