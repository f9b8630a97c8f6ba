// `yard translate`: the real binary on real files. What the target cannot say is one
// warning line each on stderr, an error (exit 2, nothing written) with --strict; a bad
// script is exit 2 naming the file, the line and the value; -o writes the file; the body
// comes through byte for byte (a Latin-1 byte, no final newline); the job it resolves is
// the one `yard submit --test-only` resolves; an HTCondor description comes back.
#include <sys/stat.h>

#include <filesystem>

#include "harness.h"

namespace yard::test {
namespace {

class Translate : public YardWorld {};

const std::string kBody = "cd \"$HOME\"\n# caf\xe9 au lait\nsrun ./app --gpus 2 \\\n  --in data\necho done";
const std::string kScript =
    "#!/bin/bash\n"
    "# a job of ours\n"
    "#SBATCH --job-name=alpha\n"
    "#SBATCH -N 2 -n 8 --mem-per-c 1G\n"
    "#SBATCH --gpus 2\n"
    "#SBATCH -t 1:30:00 -o out-%j.txt -p short -A proj1\n" +
    kBody;

TEST_F(Translate, WarningsOnStderrTheScriptOnStdoutTheBodyByteForByte) {
  write("job.sh", kScript);
  Output o = yard({"translate", "--to", "sge", "job.sh"});
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_EQ(o.err,
            "yard translate: job.sh:4: --nodes 2: Grid Engine has no node count (the parallel environment mpi spreads "
            "the slots)\n"
            "yard translate: job.sh:5: --gpus 2: Grid Engine has no GPU request but a site's own complex (gpu_resource "
            "in sge.yaml); left out\n");
  EXPECT_EQ(o.out,
            "#!/bin/bash\n# a job of ours\n#$ -N alpha\n#$ -pe mpi 8\n#$ -l h_vmem=1G\n#$ -l h_rt=1:30:00\n#$ -q short\n"
            "#$ -P proj1\n#$ -o out-$JOB_ID.txt\n#$ -j y\n#$ -cwd\n#$ -V\n" + kBody);
  for (const char* to : {"slurm", "pbs", "torque", "lsf", "oar", "flux"}) {
    Output t = yard({"translate", "--to", to, "job.sh"});
    ASSERT_EQ(t.rc, 0) << to << ": " << t.err;
    EXPECT_TRUE(t.out.ends_with("\n" + kBody)) << to << ":\n" << t.out;
  }
}

TEST_F(Translate, ToGridEngineTakesTheSitesParallelEnvironmentsAndGpuComplexFromSgeYaml) {
  write("job.sh", kScript);
  std::filesystem::create_directories(dir_ + "/config/switchyard");
  write("config/switchyard/sge.yaml", "poll_interval: 2\npe_multi_node: orte\ngpu_resource: gpu\n");
  Output o = yard({"translate", "--to", "sge", "job.sh"});
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_NE(o.out.find("#$ -pe orte 8\n"), std::string::npos) << o.out;
  // The GPU complex is known now: 2 GPUs over 8 slots is what it cannot say.
  EXPECT_EQ(o.err.find("gpu_resource"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("2 GPUs cannot be shared evenly by 8 slots"), std::string::npos) << o.err;
  write("two.sh", "#!/bin/sh\n#SBATCH -n 2 --gpus 2\necho\n");
  o = yard({"translate", "--to", "sge", "two.sh"});
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_NE(o.out.find("#$ -pe orte 2\n#$ -l gpu=1\n"), std::string::npos) << o.out;
  // A settings file that cannot be read is named, and Grid Engine's defaults are used.
  write("config/switchyard/sge.yaml", "pe_multi_node: [a, b]\n");
  o = yard({"translate", "--to", "sge", "job.sh"});
  EXPECT_EQ(o.rc, 0) << o.err;
  EXPECT_NE(o.err.find("config/switchyard/sge.yaml:1: pe_multi_node: expected a value: the site's settings, unread"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.out.find("#$ -pe mpi 8\n"), std::string::npos) << o.out;
}

TEST_F(Translate, StrictMakesWhatTheTargetCannotSayAnErrorAndWritesNothing) {
  write("job.sh", kScript);
  Output o = yard({"translate", "--to", "sge", "--strict", "-o", "job.sge", "job.sh"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_EQ(o.out, "");
  EXPECT_NE(o.err.find("yard translate: job.sh:5: --gpus 2: Grid Engine has no GPU request but a site's own complex "
                       "(gpu_resource in sge.yaml); left out\n"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("--strict: 2 things Grid Engine cannot say; nothing written"), std::string::npos) << o.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/job.sge"));
  Output fine = yard({"translate", "--to", "slurm", "--strict", "job.sh"});
  EXPECT_EQ(fine.rc, 0) << fine.err;
  EXPECT_EQ(fine.err, "");
}

TEST_F(Translate, ABadScriptNamesTheFileTheLineAndTheValue) {
  write("bad.sh", "#!/bin/sh\n#SBATCH -n 2\n#SBATCH --mem=12XB\necho\n");
  Output o = yard({"translate", "--to", "pbs", "bad.sh"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(o.err.rfind("yard translate: bad.sh:3: --mem: ", 0), 0u) << o.err;
  EXPECT_NE(o.err.find("12XB"), std::string::npos) << o.err;
  write("bad.pbs", "#!/bin/sh\n#PBS -l select=2:ncpus=x\necho\n");
  o = yard({"translate", "--to", "slurm", "bad.pbs"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_EQ(o.err, "yard translate: bad.pbs:2: in #PBS directives: -l select=2:ncpus=x: ncpus=x: expected a number of at least 1\n");
  o = yard({"translate", "--to", "slurm", "missing.sh"});
  EXPECT_EQ(o.rc, 2);
  EXPECT_NE(o.err.find("missing.sh"), std::string::npos) << o.err;
  o = yard({"translate", "--to", "loadleveler", "bad.pbs"});
  EXPECT_EQ(o.rc, 2) << o.err;
}

TEST_F(Translate, OutputGoesToTheFileExecutableWhenTheScriptWas) {
  write("job.sh", kScript);
  ::chmod((dir_ + "/job.sh").c_str(), 0755);
  Output o = yard({"translate", "--to", "lsf", "-o", "job.lsf", "job.sh"});
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_EQ(o.out, "");
  const std::string lsf = read("job.lsf");
  EXPECT_EQ(lsf.rfind("#!/bin/bash\n# a job of ours\n#BSUB -J alpha\n#BSUB -n 8\n", 0), 0u) << lsf;
  EXPECT_TRUE(lsf.ends_with("\n" + kBody));
  struct stat st {};
  ASSERT_EQ(::stat((dir_ + "/job.lsf").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  // And back: LSF's script read as an LSF one gives Slurm's words again.
  Output back = yard({"translate", "--to", "slurm", "job.lsf"});
  ASSERT_EQ(back.rc, 0) << back.err;
  EXPECT_NE(back.out.find("#SBATCH --mem-per-cpu=1G\n"), std::string::npos) << back.out;
  EXPECT_TRUE(back.out.ends_with("\n" + kBody));
}

// A value holding a quote and ending in a blank stays on its line: PBS's and LSF's
// readers take a line ending in a backslash for one going on into the next.
TEST_F(Translate, AValueEndingInABlankDoesNotSwallowTheNextLine) {
  write("t.sh", "#!/bin/bash\n#SBATCH -o \"a'b\t\"\n#SBATCH -J keep\necho body\n");
  for (const char* to : {"pbs", "lsf"}) {
    Output o = yard({"translate", "--to", to, "-o", std::string("t.") + to, "t.sh"});
    ASSERT_EQ(o.rc, 0) << to << ": " << o.err;
    EXPECT_EQ(o.err, "") << to;
    Output back = yard({"translate", "--from", to, "--to", "slurm", std::string("t.") + to});
    ASSERT_EQ(back.rc, 0) << to << ": " << back.err;
    EXPECT_NE(back.out.find("#SBATCH --output=\"a'b\t\"\n"), std::string::npos) << to << ":\n" << back.out;
    EXPECT_NE(back.out.find("#SBATCH --job-name=keep\n"), std::string::npos) << to << ":\n" << back.out;
    EXPECT_TRUE(back.out.ends_with("\necho body\n")) << to << ":\n" << back.out;
  }
}

TEST_F(Translate, TheJobIsTheOneYardSubmitResolves) {
  configure("cpus: 64\nmemory: 256G\ngpus: 4\n");
  write("one.sh", "#!/bin/bash\n#SBATCH -J one -n 4 -c 2 --mem=3G -t 20 -o o-%j -e e-%j\n#SBATCH --array=1-9:2%2\n" + kBody);
  Output t = yard({"translate", "--to", "pbs", "--json", "-o", "one.pbs", "one.sh"});
  ASSERT_EQ(t.rc, 0) << t.err;
  auto tj = nlohmann::json::parse(t.out);
  EXPECT_EQ(tj["from"], "slurm");
  EXPECT_EQ(tj["to"], "pbs");
  EXPECT_TRUE(tj["output"].is_object());  // {"base64": ...}: the body's Latin-1 byte is not UTF-8
  Output s = yard({"submit", "--test-only", "--json", "one.sh"});
  ASSERT_EQ(s.rc, 0) << s.err;
  auto sj = nlohmann::json::parse(s.out)["job"];
  for (const char* field : {"name", "nodes", "ntasks", "cpus_per_task", "mem_bytes", "mem_per_cpu_bytes", "gpus",
                            "walltime_s", "stdout", "stderr", "partition", "account", "array", "dependencies"})
    EXPECT_EQ(tj["job"][field], sj[field]) << field;
  // The PBS script, submitted: the same job but for what PBS Pro says another way (a
  // chunk's memory is a CPU's) and the array's %j.
  Output p = yard({"submit", "--test-only", "--json", "one.pbs"});
  ASSERT_EQ(p.rc, 0) << p.err;
  auto pj = nlohmann::json::parse(p.out)["job"];
  for (const char* field : {"name", "nodes", "ntasks", "cpus_per_task", "walltime_s", "stdout", "stderr", "array"})
    EXPECT_EQ(pj[field], sj[field]) << field;
  EXPECT_EQ(pj["mem_per_cpu_bytes"].get<std::uint64_t>() * 8, sj["mem_bytes"].get<std::uint64_t>());
}

TEST_F(Translate, AnHtcondorDescriptionRunsTheScriptItselfAndComesBack) {
  write("job.sh", kScript);
  std::filesystem::create_directories(dir_ + "/condor");
  Output o = yard({"translate", "--to", "htcondor", "-o", "condor/job.sub", "job.sh"});
  ASSERT_EQ(o.rc, 0) << o.err;
  const std::string sub = read("condor/job.sub");
  EXPECT_NE(sub.find("\nexecutable = ../job.sh\n"), std::string::npos) << sub;
  EXPECT_NE(sub.find("\nrequest_cpus = 8\nrequest_memory = 8G\nrequest_gpus = 2\nallowed_job_duration = 5400\n"),
            std::string::npos) << sub;
  EXPECT_TRUE(sub.ends_with("\nqueue\n")) << sub;
  EXPECT_NE(o.err.find("yard translate: job.sh:6: --partition short: HTCondor has no queues"), std::string::npos) << o.err;
  Output back = yard({"translate", "--to", "flux", "condor/job.sub"});
  ASSERT_EQ(back.rc, 0) << back.err;
  EXPECT_EQ(back.out, "#!/bin/bash\n# a job of ours\n# flux: --job-name=alpha\n# flux: -c 8\n# flux: -g 2\n"
                      "# flux: -t 90m\n# flux: -B proj1\n# flux: --output=out-{{id}}.txt\n" + kBody);
  EXPECT_NE(back.err.find("yard translate: condor/job.sub:6: --mem 8G: Flux has no memory request; left out"),
            std::string::npos) << back.err;
}

}  // namespace
}  // namespace yard::test
