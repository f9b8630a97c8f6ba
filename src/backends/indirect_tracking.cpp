// Tracking: the status listing of every job in flight, and the history of those that left it.
#include "backends/indirect_backend.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "backends/indirect_shared.h"
#include "backends/output_paths.h"
#include "core/clock.h"
#include "core/text.h"

namespace yard {

using namespace indirect;  // NOLINT: this file's own helpers

void IndirectBackend::update(Member& m, const NativeStatus& s, const MappedState& mapped, double now) {
  m.missing_since = 0;
  if (mapped.state == JobState::Pending && mapped.detail.find("DependencyNeverSatisfied") != std::string::npos &&
      !m.never_satisfied) {
    // The scheduler keeps such a job pending forever; like the local backend, cancel it.
    m.never_satisfied = true;
    units_.at(m.head).cancel_requested = true;
    if (auto st = store_.request_cancel(m.id); !st) log(dialect_.name(), st.error());
  }
  if (mapped.state == JobState::Running && !units_.at(m.head).moving_to.empty())
    stay(units_.at(m.head), "it started in " + std::string(dialect_.name()) + " before it could be taken out of the queue");
  if (mapped.state == m.state) return;
  changed_ = true;
  Transition t;
  t.reason = mapped.detail;
  t.native_state = s.raw_state;
  if (mapped.state == JobState::Running) {
    t.start_time = s.start_time.value_or(now);
    auto spec = store_.spec(units_.at(m.head).spec_id);
    if (spec) {
      auto paths = output_paths(*spec, m.head, units_.at(m.head).is_array, user_);
      t.stdout_path = member_path(paths.out_template, m.index);
      t.stderr_path = paths.err_template.empty() ? *t.stdout_path : member_path(paths.err_template, m.index);
    }
  }
  if (auto st = store_.transition(m.id, mapped.state, t, now); !st) {
    log(dialect_.name(), "job " + std::to_string(m.id) + ": " + st.error());
    return;
  }
  m.state = mapped.state;
}

void IndirectBackend::apply_poll(const CommandResult& r, std::uint64_t tag, double now) {
  if (!r.ok()) {
    poll_backoff_ = std::min(std::max(config_.poll_interval_s, poll_backoff_ * 2), config_.retry_max_s);
    next_poll_ = now + poll_backoff_;
    return;
  }
  const double t0 = monotonic_now();
  auto statuses = dialect_.parse_poll(r.out);
  if (!statuses) {
    log(dialect_.name(), "cannot read the status output: " + statuses.error());
    ++stats_.failed_calls;
    return;
  }
  poll_backoff_ = 0;
  last_listing_ = std::max(last_listing_, tag);
  auto seen = by_native_id(*statuses);
  std::vector<std::int64_t> ids;
  for (auto& [id, m] : members_)
    if (!m.native_id.empty() && m.known_from_tag <= tag) ids.push_back(id);  // submitted before this listing
  for (auto id : ids) {
    auto& m = members_.at(id);
    auto it = seen.find(m.native_id);
    m.listed = it != seen.end();
    if (it == seen.end()) {
      to_confirm_.insert(id);  // left the live queue: its history tells how it ended
      continue;
    }
    auto mapped = dialect_.map_state(*it->second);
    if (is_terminal(mapped.state) && dialect_.ended_in_queue(*it->second)) {
      // Its last record, which the history will not have (a job held for good).
      to_confirm_.erase(id);
      const Unit& u = units_.at(m.head);
      conclude(m, *it->second, mapped, u.cancel_requested && u.cancel_sent > 0, now);
      continue;
    }
    if (is_terminal(mapped.state)) {
      to_confirm_.insert(id);  // ended: the history has its exit code
      continue;
    }
    to_confirm_.erase(id);
    update(m, *it->second, mapped, now);
  }
  history_due_ = !to_confirm_.empty();  // once per status cycle, not once per step
  stats_.last_poll_parse_s = monotonic_now() - t0;
}

void IndirectBackend::apply_history(const std::vector<std::int64_t>& asked, const CommandResult& r, double now) {
  if (!r.ok()) return;  // asked again next time
  auto statuses = dialect_.parse_history(r.out);
  if (!statuses) {
    log(dialect_.name(), "cannot read the history output: " + statuses.error());
    ++stats_.failed_calls;
    return;
  }
  auto seen = by_native_id(*statuses);  // the last record of a requeued job wins
  for (auto id : asked) {
    auto mi = members_.find(id);
    if (mi == members_.end()) continue;
    auto& m = mi->second;
    auto it = seen.find(m.native_id);
    const Unit& u = units_.at(m.head);
    const bool cancelled = u.cancel_requested && u.cancel_sent > 0;
    if (it == seen.end()) {
      // Still listed by the queue (as ended): the history lags behind, nothing is gone.
      if (m.listed) continue;
      if (m.missing_since == 0) m.missing_since = now;
      // Leaving for another backend through its hold, deleted once a listing showed it
      // held and waiting: it cannot have run, and a scheduler may keep no record of a job
      // that never ran. (After a cancel that spares started jobs, its record decides.)
      if (cancelled && m.state == JobState::Pending && !u.moving_to.empty() && u.move_listing_after > 0) {
        hand_over(m, false);
        continue;
      }
      // Cancelled: some schedulers keep no record of a job deleted before it ran (Grid
      // Engine); one that ran gets its record, unless it never comes.
      if (cancelled && (m.state == JobState::Pending || now - m.missing_since >= config_.lost_after_s)) {
        Transition t;
        t.reason = m.state == JobState::Pending ? "cancelled before it ran" : "cancelled; no accounting record";
        t.end_time = now;
        finish(m, JobState::Cancelled, t, now);
        continue;
      }
      if (now - m.missing_since >= config_.lost_after_s) {
        Transition t;
        t.reason = "gone from both the queue and the accounting of " + std::string(dialect_.name()) + " for " +
                   std::to_string(static_cast<int>(now - m.missing_since)) + " s";
        t.end_time = now;
        if (!try_again(m, NativeStatus{}, JobState::Lost, t, now)) finish(m, JobState::Lost, t, now);
      }
      continue;
    }
    const NativeStatus& s = *it->second;
    auto mapped = dialect_.map_state(s);
    if (!is_terminal(mapped.state)) {
      // Still alive by the history (the queue and the history disagree for a moment).
      update(m, s, mapped, now);
      continue;
    }
    conclude(m, s, mapped, cancelled, now);
  }
}

void IndirectBackend::conclude(Member& m, const NativeStatus& s, MappedState mapped, bool cancelled, double now) {
  if (units_.at(m.head).requeueing) return requeued(m, s, now);  // however it ended: it runs again
  if (!units_.at(m.head).moving_to.empty()) {
    // Leaving for another backend: ended without a start, it goes there; else it ran here.
    // A node means it ran; so does a start before its end (sacct gives a job cancelled
    // while pending its cancel time as start and end alike).
    const bool ran = m.state == JobState::Running || !s.node_list.empty() ||
                     (s.start_time && *s.start_time > 0 && (!s.end_time || *s.end_time > *s.start_time));
    if (hand_over(m, ran)) return;
    cancelled = false;
  }
  if (!cancelled && requeue_preempted(m, s, mapped, now)) return;
  // A job killed because it was asked to be, whatever its record says ("failed", killed).
  if (cancelled && mapped.state != JobState::Completed) mapped.state = JobState::Cancelled;
  Transition t;
  t.reason = mapped.detail;
  t.native_state = s.raw_state;
  t.start_time = s.start_time;
  t.end_time = s.end_time.value_or(now);
  t.exit_code = s.exit_code;
  t.signal = s.signal && *s.signal ? s.signal : std::nullopt;
  if (m.state == JobState::Pending && (s.start_time || mapped.state == JobState::Completed ||
                                       mapped.state == JobState::Timeout || mapped.state == JobState::OutOfMemory)) {
    // It ran entirely between two status cycles: record that it ran, then how it ended.
    NativeStatus running = s;
    running.raw_state = "RUNNING";
    update(m, running, {JobState::Running, ""}, now);
  }
  if (!cancelled && try_again(m, s, mapped.state, t, now)) return;
  finish(m, mapped.state, t, now);
}

void IndirectBackend::forget(Member& m) {
  const std::int64_t id = m.id, head = m.head;
  by_native_.erase(m.native_id);
  to_confirm_.erase(id);
  members_.erase(id);  // m dangles from here
  auto& u = units_.at(head);
  u.members.erase(std::remove(u.members.begin(), u.members.end(), id), u.members.end());
  // The unit, once empty and idle, goes at the end of step().
}

void IndirectBackend::charge(std::int64_t id) {
  auto job = store_.job(id);
  if (!job || !*job) return;
  const JobRecord& j = **job;
  if (!j.start_time || !j.end_time) return;  // it never ran: nothing used
  if (j.spec_id != charged_spec_) {
    auto spec = store_.spec(j.spec_id);
    charged_spec_ = spec ? j.spec_id : 0;
    charged_account_ = spec ? spec->account : "";
  }
  const double seconds = std::max(0.0, *j.end_time - *j.start_time);
  if (auto s = store_.add_usage({id, charged_account_, *j.end_time, seconds * j.cpus}); !s)
    log(dialect_.name(), "job " + std::to_string(id) + ": its usage: " + s.error());
}

}  // namespace yard
