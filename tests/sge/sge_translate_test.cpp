// One writer for Grid Engine: a script that `yard translate --to sge` wrote, submitted with
// qsub itself, asks the real Grid Engine 8.1.9 for what the same script asks through
// `yard submit --backend sge`: the parallel environment and its slots, the resources
// (h_rt, h_vmem), the queue and the priority, as qstat -j shows them.
#include "sge_world.h"

namespace yard::test {
namespace {

// The lines of `qstat -j ID` that say what the job asked for, by their label.
std::map<std::string, std::string> asked(const std::string& id) {
  std::map<std::string, std::string> out;
  std::istringstream lines(sh("qstat -j " + id + " 2>&1"));
  for (std::string line; std::getline(lines, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string label = line.substr(0, colon);
    if (label == "parallel environment" || label == "hard resource_list" || label == "hard_queue_list" ||
        label == "priority")
      out[label] = line.substr(line.find_first_not_of(' ', colon + 1));
  }
  return out;
}

TEST_F(SgeWorld, ATranslatedScriptAsksGridEngineForWhatTheBackendAsks) {
  write("job.sh",
        "#!/bin/bash\n#SBATCH -J same\n#SBATCH -n 2\n#SBATCH --mem-per-cpu=100M\n#SBATCH -t 0:05:00\n"
        "#SBATCH -p all.q\n#SBATCH --nice=5\nsleep 300\n");
  Output t = yard({"translate", "--to", "sge", "-o", "job.sge", "job.sh"});
  ASSERT_EQ(t.rc, 0) << t.err;
  int rc = 0;
  const std::string qsub = sh("cd '" + dir_ + "' && qsub -terse job.sge 2>&1", &rc);
  ASSERT_EQ(rc, 0) << qsub << "\n" << read("job.sge");
  const std::string direct = qsub.substr(0, qsub.find_first_of(".\n"));
  long id = sge_submit({"job.sh"});
  ASSERT_TRUE(wait_until([&] { return job(id)["native_id"].is_string(); }, 60)) << diag();
  const auto through_backend = asked(job(id)["native_id"].get<std::string>());
  const auto through_qsub = asked(direct);
  sh("qdel " + direct + " >/dev/null 2>&1");
  EXPECT_EQ(through_qsub.count("parallel environment"), 1u) << sh("qstat -j " + direct);
  EXPECT_EQ(through_qsub.count("hard resource_list"), 1u);
  EXPECT_EQ(through_backend, through_qsub) << "translated:\n" << read("job.sge") << "backend's:\n"
                                           << read("state/switchyard/sge/" + job(id)["uid"].get<std::string>() + ".sh");
}

}  // namespace
}  // namespace yard::test
