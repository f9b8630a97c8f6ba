// The life-cycle suite (tests/lifecycle) on the Torque stand-in scheduler
// (tests/stand-in-schedulers: no Debian package gives a Torque server; the stand-in
// keeps a real queue, runs the jobs, and prints Torque 6's documented formats).
#include <regex>

#include "../lifecycle/direct_world.h"
#include "../lifecycle/lifecycle_world.h"

namespace yard::test {
namespace {

// Every value of <tag> in `xml`.
std::vector<std::string> values_of(const std::string& xml, const std::string& tag) {
  std::vector<std::string> out;
  const std::regex re("<" + tag + ">([^<]*)</" + tag + ">");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

const SchedulerUnderTest kTorque{
    .backend = "torque",
    .submit_command = "qsub",
    .cancel_command = "qdel",
    .jobid_variable = "PBS_JOBID",
    .cpus = 4,
    .yaml_extra = "",
    .walltime_line = "#PBS -l walltime=0:00:02",
    .array = "1-4%2",
    .array_line = "#PBS -t 1-4%2",
    .afterany_array_line = [](const std::string& base) { return "#PBS -W depend=afteranyarray:" + base + "[]"; },
    .unexpressible = {{"--gpus", "1", "--", "true"}, {"--qos", "high", "--", "true"}, {"-n", "4", "-c", "2", "--", "true"}},
    .unknown_queue_words = "qsub: submit error (Unknown queue",
    .exit_status = [](const std::string& native) -> std::optional<long> {
      auto values = values_of(sh("qstat -x '" + native + "' 2>/dev/null"), "exit_status");
      if (values.empty()) return std::nullopt;
      return std::stol(values.front());
    },
    .killed_statuses = {256 + 15, 256 + 9},
    .jobs_named = [](const std::string& uid) {
      int n = 0;
      for (auto& name : values_of(sh("qstat -x 2>/dev/null"), "Job_Name")) n += name.find(uid) != std::string::npos;
      return n;
    },
    .outage = stand_in_outage,
    .held_there = [](const std::string& native) {
      const auto holds = values_of(sh("qstat -x '" + native + "' 2>/dev/null"), "Hold_Types");
      return !holds.empty() && holds.front().find('u') != std::string::npos;
    },
    // Its queue listing states the limit the fixture set (queue_max_walltime).
    .limited_queue = "batch",
    .queue_time_limit_s = 43200,
};

INSTANTIATE_TEST_SUITE_P(TorqueStandIn, LifeCycleWorld, ::testing::Values(&kTorque), scheduler_name);
INSTANTIATE_TEST_SUITE_P(TorqueStandIn, LifeCycleOutageWorld, ::testing::Values(&kTorque), scheduler_name);
INSTANTIATE_TEST_SUITE_P(TorqueStandIn, LifeCycleCrashWorld, ::testing::Values(&kTorque), scheduler_name);

// Direct mode inside a job of its own (local/hostfile_steps.h).
const DirectUnderTest kTorqueDirect{"pbs-steps", "PBS_JOBID", "PBS_NODEFILE", "qsub -l nodes=1:ppn=2 -o /dev/null -e /dev/null \"$1\""};
INSTANTIATE_TEST_SUITE_P(TorqueStandIn, LifeCycleDirectWorld, ::testing::Values(&kTorqueDirect), direct_name);

}  // namespace
}  // namespace yard::test
