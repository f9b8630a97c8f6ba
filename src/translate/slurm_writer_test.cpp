// The #SBATCH writer: sbatch's own words for every field, values quoted for its splitter, sbatch's other options as given, components as hetjob lines.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/batch_directives.h"
#include "directives/directive_common.h"
#include "translate/translate_testing.h"
#include "translate/writer.h"
#include "translate/writers.h"

namespace yard::translate {
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
      "#SBATCH --output=out-%A_%a.out\n"
      "#SBATCH --array=1-10%3\n",
      {});
}

TEST(SlurmWriter, AnyOneOfTheDependenciesAfterAndSingleton) {
  Job any = testing::full_job();
  any.spec.dependency_any = true;
  EXPECT_NE(write_slurm(any).text.find("#SBATCH --dependency=afterok:42?afterany:43\n"), std::string::npos);
  Job more = testing::array_job();
  more.spec.dependencies = {{DependencyKind::After, 5}, {DependencyKind::Singleton, 0}, {DependencyKind::AfterCorr, 6}};
  EXPECT_NE(write_slurm(more).text.find("#SBATCH --dependency=after:5,singleton,aftercorr:6\n"), std::string::npos);
  // Elsewhere: singleton is left out and aftercorr is afterok on the whole array (losses),
  // after is the target's own where it has one.
  std::vector<Loss> losses;
  const Job b = bounded(more, losses);
  ASSERT_EQ(losses.size(), 2u);
  EXPECT_EQ(losses[0].what, "--dependency aftercorr:6");
  EXPECT_EQ(losses[1].what, "--dependency singleton");
  EXPECT_NE(write_pbs(b).text.find("#PBS -W depend=after:5,afterok:6\n"), std::string::npos);
  EXPECT_NE(write_lsf(b).text.find("-w 'started(5) && done(6)'"), std::string::npos);
  EXPECT_NE(write_flux(b).text.find("--dependency=after:5"), std::string::npos);
  // '?' where the target has only "all of them": a loss that says so.
  const Directives pbs = write_pbs(any);
  ASSERT_FALSE(pbs.losses.empty());
  EXPECT_EQ(pbs.losses[0].what, "--dependency afterok:42?afterany:43");
  EXPECT_NE(pbs.losses[0].why.find("written as all of them"), std::string::npos);
  EXPECT_NE(write_lsf(any).text.find("-w 'done(42) || ended(43)'"), std::string::npos);
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
      "#SBATCH --job-name='my job #1'\n"
      "#SBATCH --nodes=2-4\n"
      "#SBATCH --open-mode=append\n"
      "#SBATCH --chdir=\"/scratch/it's here\"\n"
      "#SBATCH --export=NONE,A=1\n"
      "#SBATCH --nice=100\n"
      "#SBATCH --no-requeue\n"
      "#SBATCH --exclusive\n"
      "#SBATCH --constraint=a&b\n"
      "#SBATCH --mail-type=END\n"
      "#SBATCH hetjob\n"
      "#SBATCH --ntasks=2\n"
      "#SBATCH --gres=nvme:1\n"
      "#SBATCH --partition=gpu\n"
      "#SBATCH --constraint=v100\n",
      {"7: --job-type besteffort: Slurm has no kinds of job (OAR's -t); left out"});
  const auto flux = testing::losses(write_flux(j));
  EXPECT_NE(std::find(flux.begin(), flux.end(), "0: --nodes 2-4: Flux takes one node count; the least is written"), flux.end());
}

// An empty value of an option that needs one is written '': alone, sbatch would find its
// value missing (an HTCondor description's `notify_user =` gives one).
TEST(SlurmWriter, AnEmptyValueOfAnOptionThatNeedsOne) {
  Job j;
  j.options = {{"mail-user", ""}, {"exclusive", ""}};
  EXPECT_EQ(write_slurm(j).text, "#SBATCH --mail-user=''\n#SBATCH --exclusive\n");
}

// Every reader takes the value back as one word; a value holding a ' is never written with
// backslashes, so that no line ends in one (a #PBS or #BSUB line would go on).
TEST(Quoted, OneWordForEveryReaderAndNeverABackslashForAQuote) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"plain", "plain"},
      {"a b\t", "'a b\t'"},
      {"a\\", "'a\\'"},
      {"a'b\t", "\"a'b\t\""},
      {"it's \"x\"", "'it'\"'\"'s \"x\"'"},
      {"'''\\ ", "\"'\"\"'\"\"'\"'\\ '"},
      {"#'", "\"#'\""},
  };
  for (const auto& [value, written] : cases) {
    SCOPED_TRACE(value);
    EXPECT_EQ(translate::quoted(value), written);
    EXPECT_EQ(*split_directive_words(translate::quoted(value)), std::vector<std::string>{value});
    EXPECT_EQ(*directives::split_words(translate::quoted(value)), std::vector<std::string>{value});
  }
}

// A value that would still end a line in a backslash where the reader takes one for the
// line going on (HTCondor's values are written as they are) is left out.
TEST(Writer, ALineEndingInABackslashIsALossWhereItWouldGoOn) {
  Job j;
  j.spec.account = "group\\";
  const auto lost = testing::losses(write_htcondor(j, "job.sh"));
  EXPECT_NE(std::find(lost.begin(), lost.end(), "0: accounting_group = group\\: HTCondor reads a line ending in a "
                                                "backslash as going on into the next one; left out"),
            lost.end());
  EXPECT_NE(write_slurm(j).text.find("#SBATCH --account='group\\'\n"), std::string::npos);
}

}  // namespace
}  // namespace yard::translate
