// The life-cycle suite (tests/lifecycle) on the LSF stand-in scheduler
// (tests/stand-in-schedulers: no Debian package gives an LSF cluster; the stand-in keeps
// a real queue, runs the jobs, and prints LSF 10.1's documented formats).
#include "../lifecycle/direct_world.h"
#include "../lifecycle/lifecycle_world.h"

namespace yard::test {
namespace {

// bjobs -a -json's records for `operands` (ids, or -u USER), or an empty list.
nlohmann::json records(const std::string& operands) {
  const std::string out = sh("bjobs -a -json -o 'jobid stat exit_code job_name' " + operands + " 2>/dev/null");
  const auto open = out.find('{');
  if (open == std::string::npos) return nlohmann::json::array();
  auto root = nlohmann::json::parse(out.substr(open), nullptr, false);
  if (root.is_discarded() || !root.contains("RECORDS")) return nlohmann::json::array();
  return root["RECORDS"];
}

const SchedulerUnderTest kLsf{
    .backend = "lsf",
    .submit_command = "bsub",
    .cancel_command = "bkill",
    .jobid_variable = "LSB_JOBID",
    .cpus = 4,
    .yaml_extra = "",
    .walltime_line = "#BSUB -W 0:01",  // LSF counts minutes: 2 s is rounded up
    .array = "1-4%2",
    .array_line = "[1-4]%2\"",         // the end of -J "yard-UID-NAME[1-4]%2"
    .afterany_array_line = [](const std::string& base) { return "#BSUB -w 'ended(" + base + ")'"; },
    .unexpressible = {{"--gpus", "1", "--", "true"}, {"--qos", "high", "--", "true"}, {"-a", "0-3", "--", "true"}},
    .unknown_queue_words = "No such queue",
    .exit_status = [](const std::string& native) -> std::optional<long> {
      for (auto& r : records("'" + native + "'")) {
        const std::string code = r.value("EXIT_CODE", std::string());
        if (!code.empty() && code != "-") return std::stol(code);
      }
      return std::nullopt;
    },
    .killed_statuses = {128 + 2, 128 + 15, 128 + 9},  // bkill: SIGINT, SIGTERM, SIGKILL in turn
    .jobs_named = [](const std::string& uid) {
      std::set<std::string> ids;
      for (auto& r : records("-u all"))
        if (r.value("JOB_NAME", std::string()).find(uid) != std::string::npos) ids.insert(r.value("JOBID", std::string()));
      return static_cast<int>(ids.size());
    },
    .outage = stand_in_outage,
    .held_there = [](const std::string& native) {
      for (auto& r : records("'" + native + "'"))
        if (r.value("STAT", std::string()) == "PSUSP") return true;
      return false;
    },
    // Its queue listing states the limit the fixture set (queue_max_walltime).
    .limited_queue = "normal",
    .queue_time_limit_s = 43200,
};

INSTANTIATE_TEST_SUITE_P(LsfStandIn, LifeCycleWorld, ::testing::Values(&kLsf), scheduler_name);
INSTANTIATE_TEST_SUITE_P(LsfStandIn, LifeCycleOutageWorld, ::testing::Values(&kLsf), scheduler_name);
INSTANTIATE_TEST_SUITE_P(LsfStandIn, LifeCycleCrashWorld, ::testing::Values(&kLsf), scheduler_name);

// Direct mode inside a job of its own (local/hostfile_steps.h).
const DirectUnderTest kLsfDirect{"lsf-steps", "LSB_JOBID", "LSB_DJOB_HOSTFILE", "bsub -n 2 -R \"span[hosts=1]\" -o /dev/null < \"$1\""};
INSTANTIATE_TEST_SUITE_P(LsfStandIn, LifeCycleDirectWorld, ::testing::Values(&kLsfDirect), direct_name);

}  // namespace
}  // namespace yard::test
