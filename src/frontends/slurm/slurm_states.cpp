#include "frontends/slurm/slurm_states.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace yard::slurm_front {
namespace {

struct Name {
  const char* name;
  const char* compact;
};

// Every state Slurm 22.05 prints, long and compact (squeue(1), "JOB STATE CODES").
constexpr Name kSlurmStates[] = {
    {"BOOT_FAIL", "BF"},   {"CANCELLED", "CA"},     {"COMPLETED", "CD"},     {"CONFIGURING", "CF"},  {"COMPLETING", "CG"},
    {"DEADLINE", "DL"},    {"FAILED", "F"},         {"NODE_FAIL", "NF"},     {"OUT_OF_MEMORY", "OOM"}, {"PENDING", "PD"},
    {"PREEMPTED", "PR"},   {"RUNNING", "R"},        {"RESV_DEL_HOLD", "RD"}, {"REQUEUE_FED", "RF"},  {"REQUEUE_HOLD", "RH"},
    {"REQUEUED", "RQ"},    {"RESIZING", "RS"},      {"REVOKED", "RV"},       {"SIGNALING", "SI"},    {"SPECIAL_EXIT", "SE"},
    {"STAGE_OUT", "SO"},   {"STOPPED", "ST"},       {"SUSPENDED", "S"},      {"TIMEOUT", "TO"}};

JobState shown(const JobRecord& j) {
  if (j.state == JobState::Unknown) return j.start_time ? JobState::Running : JobState::Pending;
  if (j.state == JobState::Lost) return JobState::NodeFail;
  return j.state;
}

const char* long_name(JobState s) {
  switch (s) {
    case JobState::Pending: return "PENDING";
    case JobState::Running: return "RUNNING";
    case JobState::Completed: return "COMPLETED";
    case JobState::Failed: return "FAILED";
    case JobState::Cancelled: return "CANCELLED";
    case JobState::Timeout: return "TIMEOUT";
    case JobState::OutOfMemory: return "OUT_OF_MEMORY";
    case JobState::NodeFail:
    case JobState::Lost: return "NODE_FAIL";
    case JobState::Unknown: return "PENDING";
  }
  return "PENDING";
}

std::string upper(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

}  // namespace

std::string slurm_state(const JobRecord& j) { return long_name(shown(j)); }

std::string slurm_state_compact(const JobRecord& j) {
  const std::string name = slurm_state(j);
  for (const auto& n : kSlurmStates)
    if (name == n.name) return n.compact;
  return "PD";
}

bool slurm_ended(const JobRecord& j) { return is_terminal(shown(j)); }

Result<std::vector<JobState>> yard_states_of(const std::string& list) {
  const std::vector<JobState> every{JobState::Pending,   JobState::Running,     JobState::Completed,
                                    JobState::Failed,    JobState::Cancelled,   JobState::Timeout,
                                    JobState::OutOfMemory, JobState::NodeFail, JobState::Lost, JobState::Unknown};
  if (upper(list) == "ALL") return every;  // only as the whole list, as Slurm reads it
  std::vector<JobState> out;
  std::stringstream in(list);
  std::string word;
  while (std::getline(in, word, ',')) {
    word = upper(word);
    const Name* found = nullptr;
    for (const auto& n : kSlurmStates)
      if (word == n.name || word == n.compact) found = &n;
    if (!found) return Error{"Invalid job state specified: " + word, ErrorKind::Invalid};
    for (JobState s : every) {
      JobRecord r;
      r.state = s;
      r.start_time = s == JobState::Unknown ? std::optional<double>(0) : std::nullopt;
      if (slurm_state(r) == found->name && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    }
    // UNKNOWN shows as PENDING before it started: both are asked for by "PD".
    if (std::string(found->name) == "PENDING" && std::find(out.begin(), out.end(), JobState::Unknown) == out.end())
      out.push_back(JobState::Unknown);
  }
  return out;
}

}  // namespace yard::slurm_front
