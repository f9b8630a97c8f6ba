// What the writers share (directive_writer.h), seen through several languages' writers:
// dependencies each target says in its own words or loses, values quoted so that every
// reader takes them back as one word, and lines a reader would join to the next.
#include "jobtext/directive_writer.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "backends/flux/flux_language.h"
#include "backends/htcondor/htcondor_language.h"
#include "backends/lsf/lsf_language.h"
#include "backends/pbs/pbs_language.h"
#include "backends/slurm/slurm_language.h"
#include "core/batch_directives.h"
#include "jobtext/directive_common.h"
#include "jobtext/writer_testing.h"

namespace yard::jobtext {
namespace {

TEST(Writers, DependenciesElsewhereThanInSlurm) {
  Job any = testing::full_job();
  any.spec.dependency_any = true;
  Job more = testing::array_job();
  more.spec.dependencies = {{DependencyKind::After, 5}, {DependencyKind::Singleton, 0}, {DependencyKind::AfterCorr, 6}};
  // Elsewhere than in Slurm: singleton is left out and aftercorr is afterok on the whole array (losses),
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


TEST(Writers, ATargetWithOneNodeCountWritesTheLeast) {
  Job j;
  j.spec.res.nodes = 2, j.spec.res.max_nodes = 4;
  const auto flux = testing::losses(write_flux(j));
  EXPECT_NE(std::find(flux.begin(), flux.end(), "0: --nodes 2-4: Flux takes one node count; the least is written"), flux.end());
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
    EXPECT_EQ(jobtext::quoted(value), written);
    EXPECT_EQ(*split_directive_words(jobtext::quoted(value)), std::vector<std::string>{value});
    EXPECT_EQ(*directives::split_words(jobtext::quoted(value)), std::vector<std::string>{value});
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
  EXPECT_NE(write_slurm(j).text.find("#SBATCH --account=\"group\\\\\"\n"), std::string::npos);
}

}  // namespace
}  // namespace yard::jobtext
