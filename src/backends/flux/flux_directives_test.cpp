// Flux's submission directives in sbatch's words, read as flux batch reads them (RFC 36):
// sentinels, the group of directives, flux batch's options, durations and output
// templates, what is warned about and what is refused.
#include "backends/flux/flux_directives.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "jobtext/directive_testing.h"

namespace yard {
namespace {

using W = std::vector<std::string>;

W words(const std::string& script, std::vector<std::string>* warnings = nullptr) {
  auto r = read_flux_directives(script, "job.sh");
  EXPECT_TRUE(r) << r.error();
  if (!r) return {};
  if (warnings) {
    *warnings = r->warnings;  // and what holds off the script's own scheduler, last
    warnings->insert(warnings->end(), r->outside_warnings.begin(), r->outside_warnings.end());
  }
  return r->directives.words;
}

std::string refusal(const std::string& script) {
  auto r = read_flux_directives(script, "job.sh");
  EXPECT_FALSE(r) << script;
  return r ? "" : r.error();
}

// The options that combine across lines keep the line that gave them.
TEST(FluxDirectives, CombinedOptionsKeepTheirLines) {
  auto r = read_flux_directives("#!/bin/sh\n# flux: -n 4\n# flux: -t 10m\n# flux: -N 2\n# flux: --env=A=1\necho\n",
                                "job.sh");
  ASSERT_TRUE(r) << r.error();
  auto line_of = directive_testing::option_lines(*r);
  EXPECT_EQ(line_of["--ntasks"], 2);
  EXPECT_EQ(line_of["--nodes"], 4);
  EXPECT_EQ(line_of["--export"], 5);
}

TEST(FluxDirectives, EveryCommonOptionSaidInSbatchsWords) {
  const std::string script =
      "#!/bin/bash\n"
      "# flux: -N 1 -n 4 -c 2 -g 1\n"
      "# flux: -t 1.5h\n"
      "# flux: --job-name=sim --queue=pdebug -B bank\n"
      "# flux: --output=out.{{id}}.txt --error=err.{{name}}\n"
      "# flux: --dependency=afterok:12 --dependency afterany:13\n"
      "# flux: --urgency=20 --cwd=/tmp\n"
      "flux run -n4 hostname\n";
  std::vector<std::string> warnings;
  EXPECT_EQ(words(script, &warnings),
            (W{"--time=0-01:30:00", "--job-name=sim", "--partition=pdebug", "--account=bank", "--output=out.%j.txt",
               "--error=err.%x", "--priority=4", "--chdir=/tmp", "--ntasks=4", "--nodes=1", "--cpus-per-task=2",
               "--gpus=4", "--dependency=afterok:12,afterany:13"}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("job.sh: the script runs flux commands, which need a Flux instance"), std::string::npos);
}

TEST(FluxDirectives, DurationsAreFluxStandardDurationsInMinutesByDefault) {
  EXPECT_EQ(words("# flux: -t 30\n"), (W{"--time=0-00:30:00"}));
  EXPECT_EQ(words("# flux: --time-limit=10s\n"), (W{"--time=0-00:00:10"}));
  EXPECT_EQ(words("# flux: -t2d\n"), (W{"--time=2-00:00:00"}));
  EXPECT_EQ(words("# flux: -t 0.5m\n"), (W{"--time=0-00:00:30"}));
  EXPECT_NE(refusal("# flux: -t soon\n").find("job.sh:1: in Flux directives: -t soon: expected a duration"),
            std::string::npos);
}

TEST(FluxDirectives, SentinelsAndTheGroupOfDirectives) {
  // Any prefix of punctuation, FLUX: too; comments inside the group; commands before it.
  EXPECT_EQ(words("#!/bin/sh\necho before\n#FLUX: -n2\n#FLUX: -c 3 # three cores each\n#\n\n#FLUX: -q q\necho\n"),
            (W{"--partition=q", "--ntasks=2", "--cpus-per-task=3"}));
  EXPECT_EQ(words("// flux: --job-name=slashes\n"), (W{"--job-name=slashes"}));
  EXPECT_EQ(refusal("# flux: -n1\n#flux: -c1\n"),
            "job.sh:2: in Flux directives: the sentinel changed from '# flux:' to '#flux:' (all directives must use one)");
  EXPECT_EQ(refusal("# flux: -n1\necho\n# flux: -c1\n"),
            "job.sh:3: in Flux directives: a directive after the group of directives ended at line 1 (flux batch: "
            "orphan 'flux:')");
  EXPECT_TRUE(has_flux_directives("#!/bin/sh\n#FLUX: -N2\n"));
  EXPECT_FALSE(has_flux_directives("#!/bin/sh\necho flux: -N2\n# influx: no\n# flux: the next line\n"));
}

TEST(FluxDirectives, WholeNodesCopiesAndTemplates) {
  EXPECT_EQ(words("# flux: -N2\n"), (W{"--nodes=2", "--exclusive"}));  // without -n Flux gives the nodes whole
  EXPECT_EQ(words("# flux: --cc=1-4 --output=o.{{cc}}.{{id.dec}}.{{node.name}}\n"),
            (W{"--array=1-4", "--output=o.%a.%j.%N"}));
  EXPECT_EQ(words("# flux: -n 2 --gpus-per-node=2 --tasks-per-node=2 --env=A=1 -x\n"),
            (W{"--ntasks-per-node=2", "--exclusive", "--ntasks=2", "--gpus=2", "--export=ALL,A=1"}));
  EXPECT_EQ(words("# flux: --output=50%.out\n"), (W{"--output=50%%.out"}));
}

// Flux passes the whole environment unless every variable is removed first (--env=-*);
// a variable given before the removal goes too.
TEST(FluxDirectives, AnEnvironmentThatStartsEmpty) {
  EXPECT_EQ(words("# flux: --env=-*\n"), (W{"--export=NONE"}));
  EXPECT_EQ(words("# flux: --env=B=2 --env=-*\n# flux: --env=A=1 --env=C\n"), (W{"--export=A=1,C"}));
}

TEST(FluxDirectives, WhatChangesNothingIsAWarningNamingTheLine) {
  std::vector<std::string> warnings;
  EXPECT_EQ(words("# flux: --setattr=foo=1 -o cpu-affinity=off --env=-HOME\n# flux: --output=kvs\n"
                  "echo $FLUX_JOB_ID\n",
                  &warnings),
            W{});
  ASSERT_EQ(warnings.size(), 5u);
  EXPECT_EQ(warnings[0], "job.sh:1: Flux --setattr=foo=1: no equivalent in yard; ignored");
  EXPECT_EQ(warnings[1], "job.sh:1: Flux -o cpu-affinity=off: no equivalent in yard; ignored");
  EXPECT_EQ(warnings[2], "job.sh:1: Flux --env=-HOME: only --env=NAME[=VALUE] is passed on; ignored");
  EXPECT_EQ(warnings[3], "job.sh:2: Flux --output=kvs: yard has no KVS; the output goes to yard's default file");
  EXPECT_NE(warnings[4].find("the script reads $FLUX_JOB_ID, which yard does not set"), std::string::npos);
}

TEST(FluxDirectives, WhatWouldChangeTheResultIsRefusedNamingTheLineAndValue) {
  EXPECT_EQ(refusal("#!/bin/sh\n# flux: --urgency=hold\n"),
            "job.sh:2: in Flux directives: --urgency=hold: a job held at submission is not supported");
  EXPECT_NE(refusal("# flux: --begin-time=+1h\n").find("--begin-time: a job starting at a given time"), std::string::npos);
  EXPECT_NE(refusal("# flux: --dependency=afterstart:1\n").find("'afterstart'"), std::string::npos);
  EXPECT_NE(refusal("# flux: --dependency=afterok:fABC\n").find("'fABC' is not a job id"), std::string::npos);
  EXPECT_NE(refusal("# flux: --output={{tmpdir}}/x\n").find("{{tmpdir}} is not supported"), std::string::npos);
  EXPECT_NE(refusal("# flux: --frob\n").find("unknown Flux option --frob"), std::string::npos);
  EXPECT_NE(refusal("# flux: --exclusive=yes\n").find("--exclusive option takes no value"), std::string::npos);
  EXPECT_NE(refusal("# flux: hostname\n").find("job.sh:1: in Flux directives: unknown directive: hostname"),
            std::string::npos);
  EXPECT_NE(refusal("# flux: -n 0\n").find("-n 0: expected a number"), std::string::npos);
  EXPECT_NE(refusal("# flux: --conf=\"\"\"\n").find("triple-quoted values are not supported"), std::string::npos);
  EXPECT_NE(refusal("# flux: --job-name='x\n").find("job.sh:1: unmatched single quote"), std::string::npos);
  EXPECT_NE(refusal("# flux: -N\n").find("-N option must have a value"), std::string::npos);
}

// flux batch puts the environment's values in for $NAME and ${NAME} in --env's values,
// and takes $$ for a '$'; it refuses a variable that is not set.
TEST(FluxDirectives, AnEnvironmentValuesDollars) {
  const char* home = std::getenv("HOME");
  ASSERT_NE(home, nullptr);
  EXPECT_EQ(words("# flux: --env=A=$$x$HOME --env=B=${HOME}_1\n"),
            (W{"--export=ALL,A=$x" + std::string(home) + ",B=" + std::string(home) + "_1"}));
  EXPECT_EQ(refusal("# flux: --env=A=$YARD_TEST_UNSET_VARIABLE\n"),
            "job.sh:1: in Flux directives: --env=A=$YARD_TEST_UNSET_VARIABLE: $YARD_TEST_UNSET_VARIABLE is not set "
            "here, and flux batch refuses it");
  EXPECT_EQ(refusal("# flux: --env=A=1$\n"), "job.sh:1: in Flux directives: --env=A=1$: a '$' that begins no variable's "
                                             "name (a '$' of the value's own is written $$)");
}

}  // namespace
}  // namespace yard
