// The #SBATCH writer: sbatch's own words for every field, values quoted for its splitter, sbatch's other options as given, components as hetjob lines.
#include <gtest/gtest.h>

#include "backends/slurm/slurm_language.h"
#include "jobtext/writer_testing.h"
#include "jobtext/directive_writer.h"

namespace yard::jobtext {
namespace {

TEST(SlurmWriter, AFullJobAndAnArray) {
  testing::expect_directives(write_slurm(testing::full_job()),
      "#SBATCH --job-name=alpha\n"
      "#SBATCH --nodes=2\n"
      "#SBATCH --ntasks=8\n"
      "#SBATCH --cpus-per-task=2\n"
      "#SBATCH --mem-per-cpu=1G\n"
      "#SBATCH --time=01:30:00\n"
      "#SBATCH --partition=short\n"
      "#SBATCH --account=proj1\n"
      "#SBATCH --output=out-%j.txt\n"
      "#SBATCH --error=err-%j.txt\n"
      "#SBATCH --dependency=afterok:42,afterany:43\n",
      {});
  testing::expect_directives(write_slurm(testing::array_job()),
      "#SBATCH --cpus-per-task=4\n"
      "#SBATCH --mem=8G\n"
      "#SBATCH --time=00:10:00\n"
      "#SBATCH --array=1-10%3\n"
      "#SBATCH --output=out-%A_%a.out\n",
      {});
}

TEST(SlurmWriter, AnyOneOfTheDependenciesAfterAndSingleton) {
  Job any = testing::full_job();
  any.spec.dependency_any = true;
  EXPECT_NE(write_slurm(any).text.find("#SBATCH --dependency=afterok:42?afterany:43\n"), std::string::npos)
      << write_slurm(any).text;
  Job more = testing::array_job();
  more.spec.dependencies = {{DependencyKind::After, 5}, {DependencyKind::Singleton, 0}, {DependencyKind::AfterCorr, 6}};
  EXPECT_NE(write_slurm(more).text.find("#SBATCH --dependency=after:5,singleton,aftercorr:6\n"), std::string::npos);
}

TEST(SlurmWriter, QuotesOtherOptionsPriorityAndComponents) {
  Job j;
  j.name_given = true;
  j.spec.name = "my job #1";
  j.options = {{"exclusive", ""}, {"constraint", "a&b"}, {"mail-type", "END"}};
  j.spec.priority = -100;
  j.spec.res.nodes = 2, j.spec.res.max_nodes = 4;
  j.spec.requeue = false;
  j.spec.job_types = {"besteffort"};
  j.spec.set_open_mode(OpenMode::Append);
  j.exports = "NONE,A=1";
  j.chdir = "/scratch/it's here";
  Component c;
  c.res.ntasks = 2;
  c.partition = "gpu";
  c.slurm_options = {{"constraint", "v100"}};
  c.res.other_gres = "nvme:1";
  j.spec.components.push_back(c);
  j.lines["job-type"] = 7;
  testing::expect_directives(write_slurm(j),
      "#SBATCH --job-name=\"my job #1\"\n"
      "#SBATCH --nodes=2-4\n"
      "#SBATCH --open-mode=append\n"
      "#SBATCH --nice=100\n"
      "#SBATCH --no-requeue\n"
      "#SBATCH --exclusive\n"
      "#SBATCH --constraint=a&b\n"
      "#SBATCH --mail-type=END\n"
      "#SBATCH --chdir=\"/scratch/it's here\"\n"
      "#SBATCH --export=NONE,A=1\n"
      "#SBATCH hetjob\n"
      "#SBATCH --nodes=1\n"
      "#SBATCH --ntasks=2\n"
      "#SBATCH --cpus-per-task=1\n"
      "#SBATCH --gres=nvme:1\n"
      "#SBATCH --partition=gpu\n"
      "#SBATCH --constraint=v100\n",
      {"7: --job-type besteffort: Slurm has no kinds of job (--job-type); left out"});
}

// An empty value of an option that needs one is written '': alone, sbatch would find its
// value missing (an HTCondor description's `notify_user =` gives one).
TEST(SlurmWriter, AnEmptyValueOfAnOptionThatNeedsOne) {
  Job j;
  j.options = {{"mail-user", ""}, {"exclusive", ""}};
  EXPECT_EQ(write_slurm(j).text, "#SBATCH --mail-user=\"\"\n#SBATCH --exclusive\n");
}

}  // namespace
}  // namespace yard::jobtext
