// Choosing which directives of a script to read: the one kind it has, the kind chosen,
// and an error naming the kinds and the option that chooses when it has several.
#include "directives/script_kind.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

TEST(ScriptKind, TheOneKindTheChosenOneOrAnError) {
  const std::string both = "#!/bin/sh\n#SBATCH -n 2\n#PBS -N x\necho\n";
  EXPECT_EQ(directive_kinds(both, "job.sh"), (std::vector<std::string>{"slurm", "pbs"}));
  EXPECT_EQ(*script_kind("#!/bin/sh\n#BSUB -n 2\n", "job.sh", "", "--from"), "lsf");
  EXPECT_EQ(*script_kind("#!/bin/sh\necho\n", "job.sh", "", "--from"), "slurm");
  EXPECT_EQ(*script_kind(both, "job.sh", "torque", "--from"), "pbs");
  auto several = script_kind(both, "job.sh", "", "--from");
  ASSERT_FALSE(several);
  EXPECT_EQ(several.error(), "job.sh: the script has directives of several schedulers (slurm, pbs): choose which to "
                             "read with --from slurm (or another)");
  auto pbs = read_directives_of("pbs", both, "job.sh", nullptr);
  ASSERT_TRUE(pbs) << pbs.error();
  EXPECT_EQ(pbs->directives.kind, "#PBS");
  EXPECT_EQ(pbs->directives.words, (std::vector<std::string>{"--job-name=x", "--export=NONE"}));
  EXPECT_EQ(read_directives_of("slurm", both, "job.sh", nullptr)->directives.words, (std::vector<std::string>{"-n", "2"}));
  EXPECT_FALSE(read_directives_of("loadleveler", both, "job.sh", nullptr));
}

}  // namespace
}  // namespace yard
