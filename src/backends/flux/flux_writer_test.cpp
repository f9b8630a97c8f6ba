// The `# flux:` writer: nodes, slots and their cores and GPUs, FSD time limits, mustache templates, --cc, --urgency, --env.
#include <gtest/gtest.h>

#include "backends/flux/flux_language.h"
#include "jobtext/writer_testing.h"

namespace yard::jobtext {
namespace {

TEST(FluxWriter, AFullJobAndAnArray) {
  testing::expect_directives(write_flux(testing::full_job()),
      "# flux: --job-name=alpha\n"
      "# flux: -N 2\n"
      "# flux: -n 8\n"
      "# flux: -c 2\n"
      "# flux: -t 90m\n"
      "# flux: -q short\n"
      "# flux: -B proj1\n"
      "# flux: --output=out-{{id}}.txt\n"
      "# flux: --error=err-{{id}}.txt\n"
      "# flux: --dependency=afterok:42\n"
      "# flux: --dependency=afterany:43\n",
      {"0: --mem-per-cpu 1G: Flux has no memory request; left out"});
  testing::expect_directives(write_flux(testing::array_job()),
      "# flux: -c 4\n"
      "# flux: -t 10m\n"
      "# flux: --output=out-{{id}}_{{cc}}.out\n"
      "# flux: --cc=1-10\n",
      {"0: --mem 8G: Flux has no memory request; left out",
       "0: --output out-%A_%a.out: %A: Flux's copies of a job (--cc) have no id in common; written as {{id}}, each one's",
       "0: --array %3: Flux has no limit on the copies running at once; left out"});
}

TEST(FluxWriter, GpusUrgencyEnvironmentAndExclusive) {
  Job j;
  j.spec.res.nodes = 2, j.spec.res.ntasks = 3, j.spec.res.gpus = 4, j.spec.res.walltime_s = 90;
  j.spec.priority = 15;
  j.options = {{"exclusive", ""}};
  j.exports = "ALL,A=1 2";
  testing::expect_directives(write_flux(j),
      "# flux: -N 2\n"
      "# flux: -n 3\n"
      "# flux: -g 2\n"
      "# flux: -t 90s\n"
      "# flux: -x\n"
      "# flux: --urgency=31\n"
      "# flux: --env='A=1 2'\n",
      {"0: --gpus 4: does not divide among the tasks (flux batch counts GPUs per slot); each task asks for the next "
       "whole number"});
  j.exports = "A,B=1,C*";
  j.spec.priority = 16;
  const Directives none = write_flux(j);
  EXPECT_NE(none.text.find("# flux: --env=-*\n# flux: --env=A\n# flux: --env=B=1\n"), std::string::npos) << none.text;
  EXPECT_EQ(testing::losses(none),
            (std::vector<std::string>{"0: --gpus 4: does not divide among the tasks (flux batch counts GPUs per slot); each task "
                                      "asks for the next whole number",
                                      "0: --priority 16: Flux's urgency runs from 1 to 31 (16 + a priority of -15 to 15); left out",
                                      "0: --export C*: Flux reads --env=C* as a rule, not a variable's name; left out"}));
}

// flux batch puts the environment's values in for $NAME in --env's values: a '$' of the
// value's own is $$; a template is filled in when the job starts: a loss.
TEST(FluxWriter, AnEnvironmentValuesOwnDollars) {
  Job j;
  j.exports = "ALL,A=$x y,B={{id}}";
  const Directives d = write_flux(j);
  EXPECT_EQ(d.text, "# flux: --env='A=$$x y'\n");
  EXPECT_EQ(testing::losses(d),
            (std::vector<std::string>{"0: --export B={{id}}: Flux fills {{...}} in a value when the job starts; left out"}));
}

}  // namespace
}  // namespace yard::jobtext
