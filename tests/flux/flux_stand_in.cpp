// The life-cycle suite (tests/lifecycle) on the Flux stand-in scheduler
// (tests/stand-in-schedulers: no Debian package gives a Flux instance here; the stand-in
// keeps a real queue, runs the jobs, and prints flux-core's documented formats).
#include "../lifecycle/lifecycle_world.h"

namespace yard::test {
namespace {

// flux jobs --json's records for `operands` (ids, or -a): one id gives its object alone.
nlohmann::json records(const std::string& operands) {
  auto root = nlohmann::json::parse(sh("flux jobs --json " + operands + " 2>/dev/null"), nullptr, false);
  if (root.is_discarded()) return nlohmann::json::array();
  if (root.contains("jobs")) return root["jobs"];
  return nlohmann::json::array({root});
}

const SchedulerUnderTest kFlux{
    .backend = "flux",
    .submit_command = "flux",
    .cancel_command = "flux cancel",
    .jobid_variable = "FLUX_JOB_ID",
    .cpus = 4,
    .yaml_extra = "",
    .walltime_line = "#   -t 2s",  // the options of flux submit, written in the script's comments
    .array = "1-4",                // Flux cannot limit how many copies run at once
    .array_line = "#   --cc=1-4",
    // Flux has no arrays: a dependency on one is on each of its copies.
    .afterany_array_line = [](const std::string& first) { return "#   --dependency=afterany:" + first; },
    .unexpressible = {{"--mem", "1G", "--", "true"}, {"-a", "1-4%2", "--", "true"}, {"--qos", "high", "--", "true"}},
    .unknown_queue_words = "[Errno 22] 'nosuchq' is not a valid queue",
    .exit_status = [](const std::string& native) -> std::optional<long> {
      for (auto& r : records("'" + native + "'"))
        if (r.contains("returncode") && r["returncode"].is_number_integer()) return r["returncode"].get<long>();
      return std::nullopt;
    },
    // Cancelled: killed by SIGTERM or SIGKILL, said as -signal or as the job shell's 128+signal.
    .killed_statuses = {-15, -9, 128 + 15, 128 + 9},
    .jobs_named = [](const std::string& uid) {
      std::set<std::string> ids;
      for (auto& r : records("-a"))
        if (r.value("name", std::string()).find(uid) != std::string::npos) ids.insert(r["id"].dump());
      return static_cast<int>(ids.size());
    },
    .outage = stand_in_outage,
    .held_there = [](const std::string& native) {
      for (auto& r : records("'" + native + "'"))
        if (r.value("urgency", -1) == 0) return true;
      return false;
    },
    // Its queue listing states the limit the fixture set (queue_max_walltime).
    .limited_queue = "batch",
    .queue_time_limit_s = 43200,
};

INSTANTIATE_TEST_SUITE_P(FluxStandIn, LifeCycleWorld, ::testing::Values(&kFlux), scheduler_name);
INSTANTIATE_TEST_SUITE_P(FluxStandIn, LifeCycleOutageWorld, ::testing::Values(&kFlux), scheduler_name);
INSTANTIATE_TEST_SUITE_P(FluxStandIn, LifeCycleCrashWorld, ::testing::Values(&kFlux), scheduler_name);

}  // namespace
}  // namespace yard::test
