// Batch scripts written for other schedulers run unchanged: a Grid Engine script's #$
// and an OAR script's #OAR directives are read (on any backend, the local one here),
// with warnings for what yard cannot honour, and a script carrying two kinds needs
// --directives.
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
        "#$ -m bea -M someone@example.org\n"
        "echo \"cpus=$YARD_CPUS_PER_TASK\"\n"
        "echo err >&2\n");
  Output o = yard({"submit", "--json", "sge.sh"});
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_NE(o.err.find("sge.sh:5: #$ -m: yard sends no mail; ignored"), std::string::npos) << o.err;
  const long id = nlohmann::json::parse(o.out)["id"].get<long>();
  ASSERT_EQ(wait({id}), 0) << job(id).dump();
  auto j = job(id);
  EXPECT_EQ(j["name"], "from-sge");
  EXPECT_EQ(j["cpus"], 2);
  EXPECT_EQ(read("sge-out." + std::to_string(id)), "cpus=2\nerr\n");  // -j y: one file
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
  EXPECT_NE(o.err.find("--job-type idempotent: backend local has no kinds of job (OAR's); ignored"), std::string::npos)
      << o.err;
  const long id = nlohmann::json::parse(o.out)["id"].get<long>();
  ASSERT_EQ(wait({id}), 0) << job(id).dump();
  EXPECT_EQ(job(id)["name"], "from-oar");
  EXPECT_EQ(read("oar-out." + std::to_string(id)), "tasks=2\n");
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

}  // namespace
}  // namespace yard::test
