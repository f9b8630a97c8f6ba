// scontrol show job [ID]: a job's record in scontrol's Key=Value lines (the fields yard
// has; the others as Slurm writes what is not set). scontrol hold|release|requeue|
// requeuehold JOB_LIST: the daemon's (yard hold|release|requeue), quiet when done.
#include <grp.h>
#include <unistd.h>

#include <iostream>

#include "cli/job_refs.h"
#include "cli/job_view.h"
#include "core/text.h"
#include "frontends/slurm/front.h"
#include "frontends/slurm/slurm_fields.h"
#include "frontends/slurm/slurm_states.h"

namespace yard::slurm_front {
namespace {

std::string group_name(unsigned gid) {
  if (const group* g = getgrgid(gid)) return g->gr_name;
  return std::to_string(gid);
}

std::string show_job(const JobRecord& j, const FieldContext& c) {
  auto f = [&](const char* name) { return field_value(name, j, c).value_or(""); };
  const std::string uid = std::to_string(::getuid()), gid = std::to_string(::getgid());
  std::string out = "JobId=" + std::to_string(j.id);
  if (j.array_index)
    out += " ArrayJobId=" + std::to_string(j.array_job_id.value_or(j.id)) + " ArrayTaskId=" + std::to_string(*j.array_index);
  out += " JobName=" + j.name + "\n";
  out += "   UserId=" + c.user + "(" + uid + ") GroupId=" + group_name(::getgid()) + "(" + gid + ") MCS_label=N/A\n";
  out += "   Priority=" + std::to_string(j.priority) + " Nice=0 Account=(null) QOS=(null)\n";
  out += "   JobState=" + slurm_state(j) + " Reason=" + f("reason") + " Dependency=(null)\n";
  out += "   Requeue=0 Restarts=" + std::to_string(j.retries) + " BatchFlag=1 Reboot=0 ExitCode=" + f("exit_code") + "\n";
  out += "   RunTime=" + f("elapsed") + " TimeLimit=" + (j.walltime_s > 0 ? f("sacct_time_limit") : "UNLIMITED") +
         " TimeMin=N/A\n";
  out += "   SubmitTime=" + f("submit_time") + " EligibleTime=" + f("submit_time") + "\n";
  out += "   StartTime=" + (j.start_time ? f("start_time") : "Unknown") + " EndTime=" +
         (j.end_time ? f("end_time") : "Unknown") + " Deadline=N/A\n";
  out += "   Partition=" + j.backend + " AllocNode:Sid=" + c.host + ":0\n";
  out += "   NodeList=" + (f("node_list").empty() ? "(null)" : f("node_list")) + "\n";
  out += "   NumNodes=1 NumCPUs=" + std::to_string(j.cpus) + " NumTasks=1 CPUs/Task=" + std::to_string(j.cpus) + "\n";
  out += "   TRES=cpu=" + std::to_string(j.cpus) + ",mem=" + f("min_memory") + ",node=1\n";
  out += "   StdErr=" + (j.stderr_path.empty() ? j.stdout_path : j.stderr_path) + "\n";
  out += "   StdIn=/dev/null\n";
  out += "   StdOut=" + j.stdout_path + "\n";
  out += "   Power=\n   \n";  // scontrol ends a record with a line of three blanks, then a blank line
  return out;
}

// scontrol ACTION JOB_LIST (ids separated by commas or blanks; an array's id: its elements).
int job_action(const std::string& what, const std::vector<std::string>& operands) {
  std::vector<std::string> words;
  for (const auto& o : operands)
    for (auto part : split(o, ','))
      if (!part.empty()) words.emplace_back(part);
  const std::string call = "slurm_" + std::string(what == "requeuehold" ? "requeue" : what) + " error: ";
  if (words.empty()) {
    std::cerr << call << "Invalid job id specified\n";
    return 1;
  }
  auto refs = parse_job_refs(words);
  if (!refs) {
    std::cerr << call << "Invalid job id specified\n";
    return 1;
  }
  auto c = client("scontrol");
  JobQuery query;
  query.ids = store_ids(*refs);
  auto found = c.all_jobs(query);
  if (!found) return fail("scontrol", found.error());
  std::vector<std::int64_t> ids;
  for (const auto& ref : *refs) {
    const JobRecord* named = nullptr;
    for (const auto& j : *found)
      if (matches(ref, j)) named = &j;
    if (!named) {
      std::cerr << call << "Invalid job id specified\n";
      return 1;
    }
    ids.push_back(ref.index ? named->id : ref.id);
  }
  const JobAction action = what == "release"       ? JobAction::Release
                           : what == "requeue"     ? JobAction::Requeue
                           : what == "requeuehold" ? JobAction::RequeueHold
                                                   : JobAction::Hold;
  if (auto done = c.act(JobActionRequest{action, ids}); !done) {
    std::cerr << call << done.error() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

int scontrol_main(const Args& args) {
  std::vector<std::string> words;
  for (const auto& a : args)
    if (a != "-o" && a != "--oneliner" && a != "-d" && a != "--details") words.push_back(a);
  if (words.empty()) return fail("scontrol", "no command given (yard's scontrol: show job [ID], requeue, hold, release)");
  const std::string& what = words[0];
  if (what == "requeue" || what == "hold" || what == "release" || what == "requeuehold" || what == "uhold")
    return job_action(what, {words.begin() + 1, words.end()});
  if (what != "show" || words.size() < 2 || (words[1] != "job" && words[1] != "jobs"))
    return fail("scontrol", "yard's scontrol knows `show job [ID]` only, not: " + what);
  auto c = client("scontrol");
  JobQuery query;
  std::vector<JobRef> refs;
  if (words.size() > 2) {
    auto parsed = parse_job_refs({words[2]});
    if (!parsed) {
      std::cerr << "slurm_load_jobs error: Invalid job id specified\n";
      return 1;
    }
    refs = *parsed;
    query.ids = store_ids(refs);
  } else {
    query.states = {JobState::Pending, JobState::Running, JobState::Unknown};
  }
  auto found = c.all_jobs(query);
  if (!found) return fail("scontrol", found.error());
  auto jobs = refs.empty() ? std::move(*found) : resolve_job_refs(refs, *found).jobs;
  if (jobs.empty()) {
    if (refs.empty()) {
      std::cout << "No jobs in the system\n";
      return 0;
    }
    std::cerr << "slurm_load_jobs error: Invalid job id specified\n";
    return 1;
  }
  const FieldContext ctx{wall_clock_now(), user_name(), host_name()};
  for (const auto& j : jobs) std::cout << show_job(j, ctx) << "\n";
  return 0;
}

}  // namespace yard::slurm_front
