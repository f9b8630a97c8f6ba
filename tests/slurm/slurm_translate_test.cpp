// One writer for Slurm: a script that `yard translate --to slurm` wrote from a PBS script,
// submitted with sbatch itself (held, so it never runs), asks the real Slurm 22.05 for what
// the same script asks through `yard submit --backend slurm`: nodes, tasks, CPUs, memory,
// GPUs, time limit, partition, nice and the sbatch options, as scontrol shows them.
#include "slurm_world.h"

namespace yard::test {
namespace {

// The fields of `scontrol show job ID` that say what the job asked for.
std::map<std::string, std::string> asked(const std::string& id) {
  std::map<std::string, std::string> out;
  std::istringstream words(sh("scontrol show job -o " + id + " 2>&1"));
  static const std::set<std::string> kAsked = {"NumNodes", "NumCPUs", "NumTasks", "CPUs/Task", "TimeLimit",
                                               "Partition", "Nice", "MinMemoryCPU", "TresPerNode", "ReqTRES",
                                               "Contiguous", "OverSubscribe"};
  for (std::string word; words >> word;) {
    const auto eq = word.find('=');
    if (eq != std::string::npos && kAsked.count(word.substr(0, eq))) out[word.substr(0, eq)] = word.substr(eq + 1);
  }
  return out;
}

TEST_F(SlurmWorld, ATranslatedScriptAsksSlurmForWhatTheBackendAsks) {
  write("job.pbs",
        "#!/bin/bash\n#PBS -N same\n#PBS -l select=1:ncpus=2:mem=300mb:ngpus=1\n#PBS -l walltime=00:05:00\n"
        "#PBS -q gpu\n#PBS -p -5\nsleep 300\n");
  Output t = yard({"translate", "--from", "pbs", "--to", "slurm", "-o", "job.sh", "job.pbs"});
  ASSERT_EQ(t.rc, 0) << t.err;
  int rc = 0;
  const std::string sbatch = sh("cd '" + dir_ + "' && sbatch --parsable --hold job.sh 2>&1", &rc);
  ASSERT_EQ(rc, 0) << sbatch << "\n" << read("job.sh");
  const std::string direct = sbatch.substr(0, sbatch.find_first_of(";\n"));
  long id = slurm_submit({"job.pbs"});
  ASSERT_TRUE(wait_until([&] { return job(id)["native_id"].is_string(); }, 60)) << diag();
  const auto through_backend = asked(job(id)["native_id"].get<std::string>());
  const auto through_sbatch = asked(direct);
  const std::string shown = sh("scontrol show job -o " + direct + " 2>&1");
  sh("scancel " + direct + " >/dev/null 2>&1");
  auto field = [&](const std::string& k) { return through_sbatch.count(k) ? through_sbatch.at(k) : ""; };
  EXPECT_EQ(field("Partition"), "gpu") << read("job.sh") << shown;
  EXPECT_EQ(field("Nice"), "5") << shown;
  EXPECT_EQ(field("TimeLimit"), "00:05:00") << shown;
  EXPECT_NE(field("TresPerNode").find("gpu:1"), std::string::npos) << shown;
  EXPECT_EQ(through_backend, through_sbatch) << "translated:\n" << read("job.sh") << "backend's:\n"
                                             << read("state/switchyard/slurm/" + job(id)["uid"].get<std::string>() +
                                                     ".sh");
}

}  // namespace
}  // namespace yard::test
