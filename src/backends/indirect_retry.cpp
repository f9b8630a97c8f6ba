// Submitting a job again: a preempted job that asks for it (--requeue), and a job that
// ended for a cause its retry policy names (core/retry_policy.h), as the scheduler's own
// record says it ended (sacct or its like: the state the dialect mapped), an exit code
// only when the policy lists it. The job keeps its id, its UID and its dependents; each
// try asks for the memory and time the policy grows to, and a node the job failed on
// twice is kept off where the scheduler can exclude nodes.
#include <algorithm>
#include <cstdlib>

#include "backends/indirect_backend.h"
#include "backends/indirect_shared.h"
#include "core/duration.h"
#include "core/size.h"
#include "core/text.h"

namespace yard {

using namespace indirect;  // NOLINT: this file's own helpers

void IndirectBackend::submit_again(Member& m, const Transition& why, double at, double now) {
  Unit& u = units_.at(m.head);
  if (m.state != JobState::Pending) {
    if (auto st = store_.transition(m.id, JobState::Pending, why, now); !st)
      log(dialect_.name(), "job " + std::to_string(m.id) + ": " + st.error());
  } else if (auto st = store_.set_pending_reason(m.id, why.reason); !st) {
    log(dialect_.name(), st.error());
  }
  // After a crash from here on, the look-up by UID finds this submission and perhaps the
  // next: the newest wins (found_by_uid), and an old one found is judged again.
  if (auto st = store_.set_native_id(m.id, ""); !st) log(dialect_.name(), st.error());
  log(dialect_.name(), "job " + std::to_string(m.id) + ": " + why.reason);
  by_native_.erase(m.native_id);
  to_confirm_.erase(m.id);
  m.native_id.clear();
  m.state = JobState::Pending;
  m.listed = false;
  m.missing_since = 0;
  u.native_base.clear();
  u.phase = Unit::Phase::ToSubmit;
  u.next_try = at;
  u.backoff = 0;
}

bool IndirectBackend::requeue_preempted(Member& m, const NativeStatus& s, const MappedState& mapped, double now) {
  if (mapped.state != JobState::Failed || !starts_with(mapped.detail, "preempted")) return false;
  Unit& u = units_.at(m.head);
  if (u.is_array) return false;
  auto spec = store_.spec(u.spec_id);
  if (!spec || !spec->requeue.value_or(false)) return false;
  Transition t;
  t.reason = std::string(dialect_.name()) + " job " + m.native_id + " " + mapped.detail + "; submitted again (--requeue)";
  t.native_state = s.raw_state;
  submit_again(m, t, now, now);
  return true;
}

bool IndirectBackend::try_again(Member& m, const NativeStatus& s, JobState to, const Transition& t, double now) {
  Unit& u = units_.at(m.head);
  if (!u.may_retry || to == JobState::Completed || to == JobState::Cancelled) return false;
  auto spec = store_.spec(u.spec_id);
  if (!spec || !spec->retry || !spec->retry->covers(to, t.exit_code)) return false;
  const RetryPolicy& policy = *spec->retry;
  auto rec = store_.job(m.id);
  if (!rec || !*rec) return false;
  const JobRecord& job = **rec;
  if (job.retries >= policy.times) return false;
  const int retry = job.retries + 1;
  // One node named: the node it failed on (of a job on several, which one failed is unknown).
  if (!s.node_list.empty() && s.node_list.find_first_of(",[ ") == std::string::npos) ++u.failed_on[s.node_list];
  const auto mem = static_cast<std::int64_t>(policy.mem_for(spec->total_mem_bytes(), retry));
  const std::int64_t time = policy.time_for(spec->res.walltime_s, retry);
  Transition back;
  back.native_state = s.raw_state;
  back.reason = "retry " + std::to_string(retry) + "/" + std::to_string(policy.times) + " after " +
                std::string(to_string(to)) + (t.exit_code && to == JobState::Failed ? " (exit " + std::to_string(*t.exit_code) + ")" : "") +
                " of " + std::string(dialect_.name()) + " job " + m.native_id;
  if (mem != job.mem_bytes)
    back.reason += ", mem " + format_bytes(static_cast<std::uint64_t>(job.mem_bytes)) + " -> " +
                   format_bytes(static_cast<std::uint64_t>(mem));
  if (time != job.walltime_s) back.reason += ", time " + format_walltime(job.walltime_s) + " -> " + format_walltime(time);
  const auto avoid = avoided_nodes(u);
  for (std::size_t i = 0; i < avoid.size(); ++i) back.reason += (i == 0 ? ", not on " : ",") + avoid[i];
  if (policy.backoff_s > 0) back.reason += ", in " + format_walltime(static_cast<std::int64_t>(policy.backoff_s));
  // The backoff's end and the nodes are stored: a daemon restarted meanwhile keeps both.
  const double not_before = policy.backoff_s > 0 ? now + policy.backoff_s : 0;
  const std::string failed_on = failed_on_text(u.failed_on), ended = native_base_of(m.native_id);
  if (auto st = store_.count_retry(m.id, mem, time, {not_before, failed_on, ended}); !st) {
    log(dialect_.name(), "job " + std::to_string(m.id) + ": cannot try it again: " + st.error());
    return false;
  }
  u.ended_try = ended;
  submit_again(m, back, now + policy.backoff_s, now);
  return true;
}

std::string indirect::failed_on_text(const std::map<std::string, int>& failed_on) {
  std::string out;
  for (auto& [node, times] : failed_on) out += (out.empty() ? "" : ",") + node + "=" + std::to_string(times);
  return out;
}

std::map<std::string, int> indirect::failed_on_of(std::string_view text) {
  std::map<std::string, int> out;
  for (auto item : split(text, ',')) {
    const auto eq = item.rfind('=');
    if (eq == std::string_view::npos || eq == 0) continue;  // not written by failed_on_text
    const int times = std::atoi(std::string(item.substr(eq + 1)).c_str());
    if (times > 0) out[std::string(item.substr(0, eq))] = times;
  }
  return out;
}

std::vector<std::string> IndirectBackend::avoided_nodes(const Unit& u) {
  std::vector<std::string> nodes;
  for (auto& [node, failures] : u.failed_on)
    if (failures >= 2) nodes.push_back(node);
  return nodes;
}

Result<JobSpec> IndirectBackend::spec_of_try(const Unit& u) {
  auto spec = store_.spec(u.spec_id);
  if (!spec || !u.may_retry) return spec;
  auto rec = store_.job(u.head);
  if (!rec) return rec.failure();
  if (!*rec || (*rec)->retries == 0) return spec;
  // Grown by the policy: the try's memory (in all, on one node as asked) and time.
  const JobRecord& job = **rec;
  if (job.mem_bytes > 0 && static_cast<std::uint64_t>(job.mem_bytes) != spec->total_mem_bytes()) {
    const auto nodes = static_cast<std::uint64_t>(std::max<std::int64_t>(1, spec->res.nodes));
    spec->res.mem_per_cpu_bytes = 0;
    spec->res.mem_bytes = (static_cast<std::uint64_t>(job.mem_bytes) + nodes - 1) / nodes;
  }
  if (job.walltime_s > 0) spec->res.walltime_s = job.walltime_s;
  return spec;
}

}  // namespace yard
