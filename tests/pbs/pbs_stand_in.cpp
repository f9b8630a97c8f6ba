// The life-cycle suite (tests/lifecycle) on the PBS Pro stand-in scheduler
// (tests/stand-in-schedulers: no Debian package gives a PBS server; the stand-in keeps a
// real queue, runs the jobs, and prints PBS Pro's documented formats).
#include "../lifecycle/direct_world.h"
#include "../lifecycle/lifecycle_world.h"

namespace yard::test {
namespace {

// The server's record of `native_id` (qstat -x -f -F json), or null.
nlohmann::json record(const std::string& native_id) {
  auto root = nlohmann::json::parse(sh("qstat -x -f -F json '" + native_id + "' 2>/dev/null"), nullptr, false);
  if (root.is_discarded() || !root.contains("Jobs")) return nullptr;
  for (auto& [id, rec] : root["Jobs"].items()) return rec;
  return nullptr;
}

const SchedulerUnderTest kPbs{
    .backend = "pbs",
    .submit_command = "qsub",
    .cancel_command = "qdel",
    .jobid_variable = "PBS_JOBID",
    .cpus = 4,
    .yaml_extra = "",
    .walltime_line = "#PBS -l walltime=0:00:02",
    .array = "1-4%2",
    .array_line = "#PBS -J 1-4%2",
    .afterany_array_line = [](const std::string& base) { return "#PBS -W depend=afterany:" + base + "[]"; },
    .unexpressible = {{"--gpus", "1", "--", "true"}, {"--qos", "high", "--", "true"}, {"-a", "1,2,5", "--", "true"}},
    .unknown_queue_words = "qsub: Unknown queue",
    .exit_status = [](const std::string& native) -> std::optional<long> {
      auto r = record(native);
      if (r.is_null() || !r.contains("Exit_status")) return std::nullopt;
      return r["Exit_status"].get<long>();
    },
    .killed_statuses = {256 + 15, 256 + 9},
    .jobs_named = [](const std::string& uid) {
      auto root = nlohmann::json::parse(sh("qstat -x -f -F json 2>/dev/null"), nullptr, false);
      if (root.is_discarded() || !root.contains("Jobs")) return 0;
      int n = 0;
      for (auto& [id, rec] : root["Jobs"].items()) n += rec.value("Job_Name", std::string()).find(uid) != std::string::npos;
      return n;
    },
    .outage = stand_in_outage,
    .held_there = [](const std::string& native) {
      return sh("qstat -f " + native + " 2>/dev/null").find("Hold_Types = u") != std::string::npos;
    },
    // Its queue listing states the limit the fixture set (queue_max_walltime).
    .limited_queue = "workq",
    .queue_time_limit_s = 43200,
};

INSTANTIATE_TEST_SUITE_P(PbsStandIn, LifeCycleWorld, ::testing::Values(&kPbs), scheduler_name);
INSTANTIATE_TEST_SUITE_P(PbsStandIn, LifeCycleOutageWorld, ::testing::Values(&kPbs), scheduler_name);
INSTANTIATE_TEST_SUITE_P(PbsStandIn, LifeCycleCrashWorld, ::testing::Values(&kPbs), scheduler_name);

// Direct mode inside a job of its own (local/hostfile_steps.h).
const DirectUnderTest kPbsDirect{"pbs-steps", "PBS_JOBID", "PBS_NODEFILE", "qsub -l select=1:ncpus=2:mpiprocs=2 -o /dev/null -e /dev/null \"$1\""};
INSTANTIATE_TEST_SUITE_P(PbsStandIn, LifeCycleDirectWorld, ::testing::Values(&kPbsDirect), direct_name);

}  // namespace
}  // namespace yard::test
