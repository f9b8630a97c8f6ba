// Reading scripts into Jobs (read_job.h): every kind through yard submit's parsing, the
// line each option came from, errors naming the file, the line and the value; the HTCondor
// submit description; and the script's parts, whose body no translation touches.
#include "translate/read_job.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

#include "backends/htcondor/htcondor_reader.h"
#include "translate/script_parts.h"
#include "backends/all_languages.h"
#include "translate/translate.h"

namespace yard::translate {
namespace {

const ScriptLanguages& languages() { return all_script_languages(); }
const ScriptLanguage* language(std::string_view name) { return all_script_languages().find(name); }

Loader files(std::map<std::string, std::string> texts) {
  return [texts](const std::string& path) -> Result<std::string> {
    auto it = texts.find(path);
    if (it == texts.end()) return err("cannot read " + path + ": No such file or directory");
    return it->second;
  };
}

Result<ReadJob> read(const std::string& text, std::string_view from = "", const std::string& origin = "job.sh") {
  return read_job(languages(), text, origin, from, files({}), nullptr);
}

TEST(ReadJob, AnSbatchScriptAsYardSubmitResolvesIt) {
  auto r = read("#!/bin/bash\n# comment\n#SBATCH -J alpha\n#SBATCH --mem-per-c 2G -n 4\n#SBATCH --time=1:00:00 "
                "--exclusive\necho\n");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->kind, "slurm");
  const Job& j = r->job;
  EXPECT_TRUE(j.name_given);
  EXPECT_EQ(j.spec.name, "alpha");
  EXPECT_EQ(j.spec.res.mem_per_cpu_bytes, 2ULL << 30);  // --mem-per-c: sbatch's abbreviation
  EXPECT_EQ(j.spec.res.ntasks, 4);
  EXPECT_EQ(j.spec.res.walltime_s, 3600);
  EXPECT_EQ(j.line("job-name"), 3);
  EXPECT_EQ(j.line("mem-per-cpu"), 4);
  EXPECT_EQ(j.line("exclusive"), 5);
  EXPECT_TRUE(j.spec.env.empty());
  EXPECT_EQ(j.exports, "ALL");
}

TEST(ReadJob, ErrorsNameTheFileTheLineAndTheValue) {
  auto bad_size = read("#!/bin/sh\n#SBATCH -n 2\n#SBATCH --mem=12XB\n");
  ASSERT_FALSE(bad_size);
  EXPECT_EQ(bad_size.error().substr(0, 15), "job.sh:3: --mem") << bad_size.error();
  EXPECT_NE(bad_size.error().find("12XB"), std::string::npos);
  auto bad_pbs = read("#!/bin/sh\n#PBS -N x\n#PBS -l walltime=soon\n");
  ASSERT_FALSE(bad_pbs);
  EXPECT_EQ(bad_pbs.error(), "job.sh:3: in #PBS directives: -l walltime=soon: expected [[hours:]minutes:]seconds");
  auto unknown = read("#!/bin/sh\n#SBATCH --frobnicate\n");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error(), "job.sh:2: in #SBATCH directives: unrecognized option '--frobnicate'");
  auto several = read("#!/bin/sh\n#SBATCH -n 2\n#BSUB -n 2\n");
  ASSERT_FALSE(several);
  EXPECT_NE(several.error().find("choose which to read with --from slurm"), std::string::npos);
}

TEST(ReadJob, TheSubmitDirectoryVariableIsNotExported) {
  auto r = read("#!/bin/sh\n#PBS -N x -V -v A=1\ncd $PBS_O_WORKDIR\n");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->job.exports, "ALL,A=1");
  EXPECT_EQ(r->job.submit_dir_variable, "PBS_O_WORKDIR");
  // Without -V the job gets no variable of the caller's but -v's (and qsub's own).
  r = read("#!/bin/sh\n#PBS -N x -v A=1\ncd $PBS_O_WORKDIR\n");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->job.exports, "A=1");
  r = read("#!/bin/sh\n#PBS -N x\ncd $PBS_O_WORKDIR\n");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->job.exports, "NONE");
}

// HTCondor's getenv is false by default: the job gets the submitter's variables that
// getenv names (all of them for true) and those environment sets.
TEST(ReadJob, AnHtcondorJobsEnvironment) {
  auto exports = [](const std::string& lines) {
    auto r = read_job(languages(), "executable = a\n" + lines + "queue\n", "j.sub", "", files({{"a", "true\n"}}), nullptr);
    EXPECT_TRUE(r) << r.error();
    return r ? r->job.exports : std::string();
  };
  EXPECT_EQ(exports(""), "NONE");
  EXPECT_EQ(exports("getenv = True\n"), "ALL");
  EXPECT_EQ(exports("getenv = true\nenvironment = \"A=1 B='x y'\"\n"), "ALL,A=1,B=x y");
  EXPECT_EQ(exports("environment = A=1;B=2\ngetenv = false\n"), "A=1,B=2");
  EXPECT_EQ(exports("getenv = PATH, HOME;X\n"), "PATH,HOME,X");
  auto pattern = read_job(languages(), "executable = a\ngetenv = CUDA*, !PATH, Y\nqueue\n", "j.sub", "", files({{"a", "true\n"}}),
                          nullptr);
  ASSERT_TRUE(pattern) << pattern.error();
  EXPECT_EQ(pattern->job.exports, "Y");
  EXPECT_EQ(pattern->warnings.size(), 2u);
}

TEST(ReadJob, AnHtcondorSubmitDescriptionAndItsExecutable) {
  const std::string sub =
      "# a job\n"
      "universe = vanilla\n"
      "Executable = job.sh\n"
      "batch_name = \"my run\"\n"
      "request_cpus = 4\n"
      "request_memory = 2 GB\n"
      "allowed_job_duration = 3600\n"
      "output = out.$(Cluster).$(ArrayIndex)\n"
      "error = out.$(Cluster).$(ArrayIndex)\n"
      "log = job.log\n"
      "max_materialize = 2\n"
      "queue ArrayIndex in (1, 3, 5)\n";
  ASSERT_TRUE(is_submit_description(sub));
  EXPECT_FALSE(is_submit_description("#!/bin/sh\necho queue\n"));
  auto r = read_job(languages(), sub, "dir/job.sub", "", files({{"dir/job.sh", "#!/bin/sh\necho hi\n"}}), nullptr);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->kind, "htcondor");
  const Job& j = r->job;
  EXPECT_EQ(j.script_path, "dir/job.sh");
  EXPECT_EQ(j.spec.script, "#!/bin/sh\necho hi\n");
  EXPECT_EQ(j.spec.name, "my run");
  EXPECT_EQ(j.spec.res.cpus_per_task, 4);
  EXPECT_EQ(j.spec.res.mem_bytes, 2ULL << 30);
  EXPECT_EQ(j.spec.res.walltime_s, 3600);
  EXPECT_EQ(j.spec.stdout_path, "out.%A.%a");
  EXPECT_EQ(j.spec.stderr_path, "");  // the same file: stderr with stdout
  ASSERT_TRUE(j.spec.array);
  EXPECT_EQ(j.spec.array->indices, (std::vector<std::int64_t>{1, 3, 5}));
  EXPECT_EQ(j.spec.array->max_running, 2);
  EXPECT_EQ(j.exports, "NONE");  // no getenv
  EXPECT_EQ(r->warnings, (std::vector<std::string>{"dir/job.sub:10: HTCondor log: no equivalent in yard; ignored"}));
  auto missing = read_job(languages(), sub, "dir/job.sub", "", files({}), nullptr);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error(), "dir/job.sub:3: executable = job.sh: cannot read dir/job.sh: No such file or directory");
  auto bad = read_job(languages(), "executable = a\nrequest_cpus = many\nqueue\n", "j.sub", "", files({{"a", ""}}), nullptr);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), "j.sub:2: in HTCondor directives: request_cpus = many: expected a number");
}

TEST(ScriptParts, TheHeaderLosesItsDirectivesAndTheBodyStaysByteForByte) {
  const std::string body = "module load x\n#PBS -N late\necho caf\xe9 \\\n  done";  // Latin-1, no final newline
  const std::string script = "#!/bin/bash\n# about\n#PBS -N a \\\n   -q b\n\n#SBATCH -n 2\n# more\n" + body;
  const ScriptParts p = split_script(languages(), script, language("pbs"));
  EXPECT_EQ(p.shebang, "#!/bin/bash\n");
  EXPECT_EQ(p.before, "# about\n");
  EXPECT_EQ(p.after, "\n# more\n");
  EXPECT_EQ(p.body, body);
  EXPECT_TRUE(p.body_directives.empty());  // qsub stops at the first command
  EXPECT_EQ(assemble(p, "#SBATCH -J a\n", *language("slurm")), "#!/bin/bash\n# about\n#SBATCH -J a\n\n# more\n" + body);
  EXPECT_EQ(split_script(languages(), script, language("lsf")).body_directives, std::vector<int>{});
  EXPECT_EQ(split_script(languages(), "#!/bin/sh\necho\n#BSUB -n 2\n", language("lsf")).body_directives, std::vector<int>{3});
  // OAR reads its directives from the second line on.
  EXPECT_EQ(assemble(split_script(languages(), "echo\n", nullptr), "#OAR -n x\n", *language("oar")),
            "# OAR job (oarsub -S reads the #OAR lines below)\n#OAR -n x\necho\n");
}

TEST(Translate, LossesAndTheReadersWarningsNameTheFileAndTheLine) {
  Request request{"#!/bin/sh\n#SBATCH -n 2\n#SBATCH --gpus 2\n#BSUB -q x\nsrun hostname\n", "job.sh", "slurm", "sge", "", ""};
  auto t = translate(languages(), request, files({}), nullptr);
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->warnings, (std::vector<std::string>{"job.sh:3: --gpus 2: Grid Engine has no GPU request but a site's own "
                                                   "complex (gpu_resource in sge.yaml); left out"}));
  EXPECT_EQ(t->losses, 1u);
  EXPECT_EQ(t->output, "#!/bin/sh\n#$ -pe mpi 2\n#$ -j y\n#$ -cwd\n#$ -V\nsrun hostname\n");
  request = {"#!/bin/sh\n#BSUB -n 2\ncd $LS_SUBCWD\n#BSUB -q late\n", "job.sh", "", "slurm", "", ""};
  t = translate(languages(), request, files({}), nullptr);
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->output, "#!/bin/sh\n#SBATCH --ntasks=2\n#SBATCH --partition=late\ncd $LS_SUBCWD\n#BSUB -q late\n");
  EXPECT_EQ(t->warnings,
            (std::vector<std::string>{
                "job.sh: $LS_SUBCWD: the script reads it, and Slurm does not set it (the directory the job was submitted from)",
                "job.sh:4: a directive after the script's first command: kept in the body as it is (translated above)"}));
}

// qsub reads #PBS lines past a line starting with ':'; no other scheduler reads its
// directives there, so the target's go before such a line.
TEST(Translate, APbsScriptsColonLineComesAfterTheTargetsDirectives) {
  auto t = translate(languages(), {"#!/bin/sh\n: set up\n#PBS -N x -V\necho\n", "job.sh", "", "slurm", "", ""}, files({}), nullptr);
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->output, "#!/bin/sh\n#SBATCH --job-name=x\n: set up\necho\n");
}

TEST(Translate, ABodyLineTheTargetWouldReadIsAnErrorAndAFluxGroupMayFollowCommands) {
  auto refused = translate(languages(), {"#!/bin/sh\n#SBATCH -n 2\necho\n#$ -N other\n", "job.sh", "slurm", "sge", "", ""}, files({}), nullptr);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error(), "job.sh:4: Grid Engine would read this line as a directive of its own, and the translation "
                             "would not be the job (remove it, or translate with --from sge)");
  const std::string flux = "#!/bin/sh\necho before\n# flux: -n 4\n# a comment in the group\n# flux: -t 5m\nflux run x\n";
  auto t = translate(languages(), {flux, "job.sh", "", "slurm", "", ""}, files({}), nullptr);
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->output, "#!/bin/sh\n#SBATCH --ntasks=4\n#SBATCH --time=00:05:00\necho before\n# a comment in the group\n"
                       "flux run x\n");
  t = translate(languages(), {flux, "job.sh", "", "flux", "", ""}, files({}), nullptr);
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->output, "#!/bin/sh\n# flux: -n 4\n# flux: -t 5m\necho before\n# a comment in the group\nflux run x\n");
}

TEST(Translate, WhatYardSubmitActsOnItselfIsWrittenToo) {
  auto t = translate(languages(), {"#!/bin/sh\n#SBATCH --wait --nice=10\necho\n", "job.sh", "", "pbs", "", ""}, files({}), nullptr);
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->output, "#!/bin/sh\n#PBS -j oe\n#PBS -W block=true\n#PBS -p -10\n#PBS -V\necho\n");
  t = translate(languages(), {"#!/bin/sh\n#SBATCH --wait --nice=10\necho\n", "job.sh", "", "slurm", "", ""}, files({}), nullptr);
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->output, "#!/bin/sh\n#SBATCH --nice=10\n#SBATCH --wait\necho\n");
  t = translate(languages(), {"#!/bin/sh\n#SBATCH -n 2000000000 -d afterok:12345678901\necho\n", "job.sh", "", "lsf", "", ""}, files({}),
                nullptr);
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->output, "#!/bin/sh\n#BSUB -n 999999999\n#BSUB -R \"span[hosts=1]\"\necho\n");
  EXPECT_EQ(t->warnings[0], "job.sh:2: --ntasks 2000000000: more than the target's directives count (nine digits); "
                            "written as 999999999");
}

TEST(Translate, TheReadersWordOnTheBodyOnlyWhenTheSchedulerChanges) {
  const std::string pbs = "#!/bin/sh\n#PBS -N x\necho $PBS_JOBID\n";
  auto same = translate(languages(), {pbs, "job.sh", "", "torque", "", ""}, files({}), nullptr);
  ASSERT_TRUE(same) << same.error();
  EXPECT_TRUE(same->warnings.empty());
  auto other = translate(languages(), {pbs, "job.sh", "", "slurm", "", ""}, files({}), nullptr);
  ASSERT_TRUE(other) << other.error();
  ASSERT_EQ(other->warnings.size(), 1u);
  EXPECT_EQ(other->warnings[0].rfind("job.sh: the script reads $PBS_JOBID, which yard does not set", 0), 0u);
}

// condor_submit's macros as it puts them in: $(DOLLAR) a '$', $$(DOLLARDOLLAR) two,
// $ENV(NAME[:DEFAULT]) the environment's NAME; another macro is kept, with a warning.
TEST(ReadJob, AnHtcondorDescriptionsMacros) {
  const char* home = std::getenv("HOME");
  ASSERT_NE(home, nullptr);
  const std::string sub =
      "executable = job$(DOLLAR).sh\n"
      "batch_name = a$(DOLLAR)(id)\n"
      "accounting_group = g$$(DOLLARDOLLAR)\n"
      "initialdir = $ENV(HOME)/$ENV(YARD_TEST_UNSET_VARIABLE:dflt)\n"
      "notify_user = $(user)@x\n"
      "environment = \"X=$ENV(HOME) Y=$(DOLLAR)z\"\n"
      "output = o$(DOLLAR)%.$(Cluster)\n"
      "queue\n";
  auto r = read_job(languages(), sub, "j.sub", "", files({{"job$.sh", "#!/bin/sh\n"}}), nullptr);
  ASSERT_TRUE(r) << r.error();
  const Job& j = r->job;
  EXPECT_EQ(j.script_path, "job$.sh");
  EXPECT_EQ(j.spec.name, "a$(id)");
  EXPECT_EQ(j.spec.account, "g$$");
  EXPECT_EQ(j.chdir, std::string(home) + "/dflt");
  EXPECT_EQ(j.option("mail-user"), "$(user)@x");
  EXPECT_EQ(j.exports, "X=" + std::string(home) + ",Y=$z");
  EXPECT_EQ(j.spec.stdout_path, "o$%%.%j");
  EXPECT_EQ(r->warnings, (std::vector<std::string>{"j.sub:5: HTCondor notify_user = $(user)@x: HTCondor puts a value in "
                                                   "for $(user), which yard does not know; kept as written"}));
  auto machine = read_job(languages(), "executable = a\noutput = $$(Name).out\nqueue\n", "j.sub", "", files({{"a", ""}}), nullptr);
  ASSERT_FALSE(machine);
  EXPECT_EQ(machine.error(), "j.sub:2: in HTCondor directives: output = $$(Name).out: $$(Name) is not supported in "
                             "yard's output paths");
}

}  // namespace
}  // namespace yard::translate
