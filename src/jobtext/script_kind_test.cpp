// Choosing which directives of a script to read: the one kind it has, the kind chosen,
// and an error naming the kinds and the option that chooses when it has several.
#include "jobtext/script_kind.h"

#include <gtest/gtest.h>

#include "backends/all_languages.h"

namespace yard {
namespace {

TEST(ScriptKind, TheOneKindTheChosenOneOrAnError) {
  const std::string both = "#!/bin/sh\n#SBATCH -n 2\n#PBS -N x\necho\n";
  const ScriptLanguages& all = all_script_languages();
  EXPECT_EQ(directive_kinds(all, both, "job.sh"), (std::vector<std::string>{"slurm", "pbs"}));
  EXPECT_EQ((*script_kind(all, "#!/bin/sh\n#BSUB -n 2\n", "job.sh", "", "--from"))->name(), "lsf");
  EXPECT_EQ((*script_kind(all, "#!/bin/sh\necho\n", "job.sh", "", "--from"))->name(), "slurm");
  EXPECT_EQ((*script_kind(all, both, "job.sh", "torque", "--from"))->family(), "pbs");
  auto several = script_kind(all, both, "job.sh", "", "--from");
  ASSERT_FALSE(several);
  EXPECT_EQ(several.error(), "job.sh: the script has directives of several schedulers (slurm, pbs): choose which to "
                             "read with --from slurm (or another)");
  auto pbs = all.find("pbs")->read_directives(both, "job.sh", nullptr);
  ASSERT_TRUE(pbs) << pbs.error();
  EXPECT_EQ(pbs->directives.kind, "#PBS");
  EXPECT_EQ(pbs->directives.words, (std::vector<std::string>{"--job-name=x", "--export=NONE"}));
  EXPECT_EQ(all.find("slurm")->read_directives(both, "job.sh", nullptr)->directives.words,
            (std::vector<std::string>{"-n", "2"}));
  auto unknown = script_kind(all, both, "job.sh", "loadleveler", "--from");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error(), "unknown kind of directives 'loadleveler' (slurm, flux, lsf, oar, pbs, torque, sge)");
}

}  // namespace
}  // namespace yard
