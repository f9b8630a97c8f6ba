// The life-cycle suite (tests/lifecycle) on the HTCondor stand-in scheduler
// (tests/stand-in-schedulers: no Debian package gives an HTCondor pool here; the stand-in
// keeps a real queue, runs the jobs, and prints HTCondor's documented formats).
#include "../lifecycle/lifecycle_world.h"

namespace yard::test {
namespace {

// Every ad of the user's jobs, in the queue and in the history, with these attributes.
nlohmann::json ads(const std::string& operands) {
  nlohmann::json all = nlohmann::json::array();
  for (const char* command : {"condor_q", "condor_history"}) {
    const std::string out =
        sh(std::string(command) + " " + operands + " -json -attributes ClusterId,ProcId,JobStatus,JobBatchName 2>/dev/null");
    auto list = nlohmann::json::parse(out, nullptr, false);  // nothing at all when no job matched
    if (list.is_array())
      for (auto& ad : list) all.push_back(ad);
  }
  return all;
}

const SchedulerUnderTest kHtcondor{
    .backend = "htcondor",
    .submit_command = "condor_submit",
    .cancel_command = "condor_rm",
    .jobid_variable = "YARD_HTCONDOR_ID",  // set by the submit description: HTCondor sets none
    .cpus = 4,
    .yaml_extra = "",
    .walltime_line = "allowed_job_duration = 2",  // in the submit description beside the script
    .array = "1-4%2",
    .array_line = "max_materialize = 2\nqueue ArrayIndex in (1, 2, 3, 4)",
    // HTCondor has no dependencies outside DAGMan: yard holds the job, whose description
    // is a plain one.
    .afterany_array_line = [](const std::string&) { return std::string("queue"); },
    .unexpressible = {{"--qos", "high", "--", "true"}, {"-N", "2", "--", "true"}},
    .unknown_queue_words = "",  // no queues: HTCondor matches machines
    // What HTCondor recorded of the job: JobStatus 3 once condor_rm removed it.
    .exit_status = [](const std::string& native) -> std::optional<long> {
      for (auto& ad : ads("'" + native + "'"))
        if (ad.contains("JobStatus") && ad["JobStatus"] == 3) return 3;
      return std::nullopt;
    },
    .killed_statuses = {3},
    .jobs_named = [](const std::string& uid) {
      std::set<std::string> ids;
      for (auto& ad : ads("\"$(id -un)\""))
        if (ad.value("JobBatchName", std::string()).find(uid) != std::string::npos)
          ids.insert(std::to_string(ad.value("ClusterId", -1)) + "." + std::to_string(ad.value("ProcId", -1)));
      return static_cast<int>(ids.size());
    },
    .outage = stand_in_outage,
    .held_there = [](const std::string& native) {
      auto list = nlohmann::json::parse(sh("condor_q " + native + " -json -attributes JobStatus,HoldReasonCode 2>/dev/null"),
                                        nullptr, false);
      if (!list.is_array()) return false;
      for (auto& ad : list)
        if (ad.value("JobStatus", 0) == 5 && ad.value("HoldReasonCode", 0) == 1) return true;
      return false;
    },
    .holds_on_dependencies = false,  // no DAGMan: yard keeps a job until its dependency is met
};

INSTANTIATE_TEST_SUITE_P(HtcondorStandIn, LifeCycleWorld, ::testing::Values(&kHtcondor), scheduler_name);
INSTANTIATE_TEST_SUITE_P(HtcondorStandIn, LifeCycleOutageWorld, ::testing::Values(&kHtcondor), scheduler_name);
INSTANTIATE_TEST_SUITE_P(HtcondorStandIn, LifeCycleCrashWorld, ::testing::Values(&kHtcondor), scheduler_name);

}  // namespace
}  // namespace yard::test
