// Batch scripts written for other schedulers run unchanged: a Grid Engine script's #$,
// an OAR script's #OAR, a PBS script's #PBS, an LSF script's #BSUB and a Flux script's
// `# flux:` directives are read (on any backend, the local one here), with warnings for
// what yard cannot honour, and a script carrying two kinds needs --directives.
#include <filesystem>

#include "harness.h"

namespace yard::test {
namespace {

class ScriptDirectives : public YardWorld {};

TEST_F(ScriptDirectives, AGridEngineScriptRunsUnchangedOnTheLocalBackend) {
  configure("cpus: 2\n");
  write("sge.sh",
        "#!/bin/bash\n"
        "#$ -N from-sge -cwd -V\n"
        "#$ -pe smp 2 -l h_rt=0:10:00,h_vmem=100M\n"
        "#$ -o sge-out.$JOB_ID -j y\n"
        "echo \"cpus=$YARD_CPUS_PER_TASK caller=${FROM_CALLER-unset}\"\n"
        "echo err >&2\n");
  Output o = yard({"submit", "--json", "sge.sh"}, {"FROM_CALLER=1"});
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_EQ(o.err, "") << "nothing of this script is lost on the local backend";
  const long id = nlohmann::json::parse(o.out)["id"].get<long>();
  ASSERT_EQ(wait({id}), 0) << job(id).dump();
  auto j = job(id);
  EXPECT_EQ(j["name"], "from-sge");
  EXPECT_EQ(j["cpus"], 2);
  // -j y: one file; -V: the caller's environment.
  EXPECT_EQ(read("sge-out." + std::to_string(id)), "cpus=2 caller=1\nerr\n");
}

TEST_F(ScriptDirectives, AnOarScriptRunsUnchangedOnTheLocalBackend) {
  configure("cpus: 2\n");
  write("oar.sh",
        "#!/bin/bash\n"
        "#OAR -n from-oar\n"
        "#OAR -l /nodes=1/core=2,walltime=0:10:00\n"
        "#OAR -O oar-out.%jobid%\n"
        "#OAR -t idempotent\n"
        "echo \"tasks=$YARD_NTASKS\"\n");
  Output o = yard({"submit", "--json", "oar.sh"});
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_NE(o.err.find("--job-type idempotent: backend local has no kinds of job; ignored"), std::string::npos)
      << o.err;
  const long id = nlohmann::json::parse(o.out)["id"].get<long>();
  ASSERT_EQ(wait({id}), 0) << job(id).dump();
  EXPECT_EQ(job(id)["name"], "from-oar");
  EXPECT_EQ(read("oar-out." + std::to_string(id)), "tasks=2\n");
}

TEST_F(ScriptDirectives, APbsScriptRunsUnchangedOnTheLocalBackend) {
  configure("cpus: 2\nsendmail: /nonexistent/sendmail\n");
  write("pbs.sh",
        "#!/bin/bash\n"
        "#PBS -N from-pbs\n"
        "#PBS -l select=1:ncpus=2:mem=100mb\n"
        "#PBS -l walltime=00:10:00\n"
        "#PBS -o pbs-out.$PBS_JOBID -j oe\n"
        "#PBS -m abe -M someone@example.org\n"
        "cd $PBS_O_WORKDIR\n"
        "echo \"cpus=$YARD_CPUS_PER_TASK workdir=$PBS_O_WORKDIR caller=${FROM_CALLER-unset}\"\n"
        "echo err >&2\n");
  Output o = yard({"submit", "--json", "pbs.sh"}, {"FROM_CALLER=1"});
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_NE(o.err.find("--mail-type=FAIL,BEGIN,END: no sendmail on this machine (/nonexistent/sendmail); no mail will be sent"),
            std::string::npos)
      << o.err;
  const long id = nlohmann::json::parse(o.out)["id"].get<long>();
  ASSERT_EQ(wait({id}), 0) << job(id).dump();
  auto j = job(id);
  EXPECT_EQ(j["name"], "from-pbs");
  EXPECT_EQ(j["cpus"], 2);
  EXPECT_EQ(j["mem_bytes"], 100 * 1024 * 1024);
  EXPECT_EQ(j["walltime_s"], 600);
  // -j oe: one file; $PBS_O_WORKDIR is where the job was submitted from; without -V, as
  // with qsub, the job gets none of the caller's variables.
  EXPECT_EQ(read("pbs-out." + std::to_string(id)),
            "cpus=2 workdir=" + std::filesystem::canonical(dir_).string() + " caller=unset\nerr\n");
}

TEST_F(ScriptDirectives, AnLsfScriptRunsUnchangedOnTheLocalBackend) {
  configure("cpus: 2\n");
  write("lsf.sh",
        "#!/bin/bash\n"
        "#BSUB -J from-lsf\n"
        "#BSUB -n 2 -R \"span[hosts=1] rusage[mem=100]\"\n"
        "#BSUB -W 10\n"
        "#BSUB -o lsf-out.txt\n"
        "echo \"tasks=$YARD_NTASKS\"\n"
        "#BSUB -x\n");  // read too: bsub reads every #BSUB line
  write("lsf-out.txt", "before\n");  // -o appends, as in LSF: what was in the file stays
  Output o = yard({"submit", "--json", "lsf.sh"});
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_EQ(o.err.find("--exclusive"), std::string::npos) << o.err;  // honoured: the job has the machine
  const long id = nlohmann::json::parse(o.out)["id"].get<long>();
  ASSERT_EQ(wait({id}), 0) << job(id).dump();
  auto j = job(id);
  EXPECT_EQ(j["name"], "from-lsf");
  EXPECT_EQ(j["cpus"], 2);
  EXPECT_EQ(j["mem_bytes"], 100 * 1024 * 1024);
  EXPECT_EQ(j["walltime_s"], 600);
  EXPECT_EQ(read("lsf-out.txt"), "before\ntasks=2\n");
}

TEST_F(ScriptDirectives, AFluxScriptRunsUnchangedOnTheLocalBackend) {
  configure("cpus: 2\n");
  write("flux.sh",
        "#!/bin/bash\n"
        "# flux: --job-name=from-flux\n"
        "# flux: -n 2 -c 1  # two slots of a core\n"
        "# flux: -t 10m\n"
        "# flux: --output=flux-out.{{id}}\n"
        "echo \"tasks=$YARD_NTASKS\"\n");
  Output o = yard({"submit", "--json", "flux.sh"});
  ASSERT_EQ(o.rc, 0) << o.err;
  const long id = nlohmann::json::parse(o.out)["id"].get<long>();
  ASSERT_EQ(wait({id}), 0) << job(id).dump();
  auto j = job(id);
  EXPECT_EQ(j["name"], "from-flux");
  EXPECT_EQ(j["cpus"], 2);
  EXPECT_EQ(j["walltime_s"], 600);
  EXPECT_EQ(read("flux-out." + std::to_string(id)), "tasks=2\n");
}

// Every word the readers say is one yard's flag parser takes, line by line as from
// #SBATCH lines: the whole job is shown, nothing refused.
TEST_F(ScriptDirectives, EveryTranslatedOptionIsOneYardTakes) {
  configure("cpus: 8\ngpus: 4\n");
  const std::string first = std::to_string(submit({"--", "true"}));  // what the scripts depend on
  write("pbs.sh",
        "#!/bin/bash\n"
        "#PBS -N p -q workq -A acct -l select=2:ncpus=2:mpiprocs=2:mem=1gb:ngpus=1 -l place=excl\n"
        "#PBS -l walltime=1:00:00 -J 1-4%2 -W depend=afterany:" + first + ",block=true -v A=1 -p 5 -r y\n"
        "#PBS -m be -M me@example.org -o o.$PBS_JOBID -e e.txt\n"
        "true\n");
  write("lsf.sh",
        "#!/bin/bash\n"
        "#BSUB -J \"l[1-4]%2\" -n 4 -R \"span[ptile=4] rusage[mem=100]\" -M 200 -W 30 -q normal -P acct\n"
        "#BSUB -o o.%J.%I -e e.%J -w 'ended(" + first + ")' -gpu num=1 -x -B -N -u me -env \"all, A=1\" -sp 5 -r -K\n"
        "true\n");
  write("flux.sh",
        "#!/bin/bash\n"
        "# flux: -N 1 -n 2 -c 2 -g 1 --tasks-per-node=2 -t 1h --job-name=f -q q -B acct -x\n"
        "# flux: --output=o.{{id}} --error=e.{{cc}} --dependency=afterok:" + first + " --cc=1-2 --urgency=20 --env=A=1\n"
        "true\n");
  for (const char* script : {"pbs.sh", "lsf.sh", "flux.sh"}) {
    Output o = yard({"submit", "--test-only", "--json", script});
    ASSERT_EQ(o.rc, 0) << script << ": " << o.err;
    auto j = nlohmann::json::parse(o.out)["job"];
    EXPECT_EQ(j["account"], "acct") << script << ": " << j.dump();
    EXPECT_FALSE(j["dependencies"].empty()) << script << ": " << j.dump();
  }
}

TEST_F(ScriptDirectives, PbsLsfAndFluxDirectivesTogetherNeedAChoice) {
  write("three.sh", "#!/bin/sh\n#PBS -N pbs-name\n#BSUB -J lsf-name\n# flux: --job-name=flux-name\ntrue\n");
  Output o = yard({"submit", "--test-only", "three.sh"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_NE(o.err.find("three.sh: the script has directives of several schedulers (flux, lsf, pbs)"), std::string::npos)
      << o.err;
  for (auto [kind, name] : {std::pair{"pbs", "pbs-name"}, std::pair{"torque", "pbs-name"}, std::pair{"lsf", "lsf-name"},
                            std::pair{"flux", "flux-name"}}) {
    Output chosen = yard({"submit", "--test-only", "--json", "--directives", kind, "three.sh"});
    ASSERT_EQ(chosen.rc, 0) << kind << ": " << chosen.err;
    EXPECT_EQ(nlohmann::json::parse(chosen.out)["job"]["name"], name) << kind;
  }
  write("bad.sh", "#!/bin/sh\n#BSUB -W 9x\ntrue\n");
  Output bad = yard({"submit", "--test-only", "bad.sh"});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("bad.sh:2: in #BSUB directives: -W 9x: expected [hours:]minutes"), std::string::npos) << bad.err;
  EXPECT_EQ(status().size(), 0u);
}

TEST_F(ScriptDirectives, TwoKindsOfDirectivesNeedAChoice) {
  write("both.sh", "#!/bin/sh\n#SBATCH -J slurm-name\n#$ -N sge-name\ntrue\n");
  Output o = yard({"submit", "--test-only", "both.sh"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_NE(o.err.find("both.sh: the script has directives of several schedulers (slurm, sge)"), std::string::npos)
      << o.err;
  for (auto [kind, name] : {std::pair{"slurm", "slurm-name"}, std::pair{"sge", "sge-name"}}) {
    Output chosen = yard({"submit", "--test-only", "--json", "--directives", kind, "both.sh"});
    ASSERT_EQ(chosen.rc, 0) << chosen.err;
    EXPECT_EQ(nlohmann::json::parse(chosen.out)["job"]["name"], name);
  }
  write("bad.sh", "#!/bin/sh\n#$ -h\ntrue\n");
  Output bad = yard({"submit", "--test-only", "bad.sh"});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("bad.sh:2: in #$ directives: -h"), std::string::npos) << bad.err;
  EXPECT_EQ(status().size(), 0u);
}

// A job description that names its script (HTCondor's) is not run as a shell script.
TEST_F(ScriptDirectives, AJobDescriptionIsRefusedAsAScriptAndNamesWhatToDoInstead) {
  write("job.sub", "executable = job.sh\nrequest_cpus = 2\nqueue\n");
  Output o = yard({"submit", "job.sub"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_NE(o.err.find("job.sub: this is HTCondor's job description, not a batch script"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("yard translate --from htcondor --to slurm job.sub"), std::string::npos) << o.err;
  EXPECT_EQ(status().size(), 0u);
  // A script that happens to hold such lines is one when it says its interpreter.
  write("queue.sh", "#!/bin/sh\nexecutable=x\necho queue\n");
  Output script = yard({"submit", "--test-only", "queue.sh"});
  EXPECT_EQ(script.rc, 0) << script.err;
}

}  // namespace
}  // namespace yard::test
