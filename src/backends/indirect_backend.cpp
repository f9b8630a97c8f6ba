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


namespace indirect {

std::unordered_map<std::string, const NativeStatus*> by_native_id(const std::vector<NativeStatus>& statuses) {
  std::unordered_map<std::string, const NativeStatus*> seen;
  for (auto& s : statuses) {
    seen[s.native_id] = &s;
    const auto& id = s.native_id;
    if (id.size() > 2 && id.compare(id.size() - 2, 2, "+0") == 0) seen[id.substr(0, id.size() - 2)] = &s;
  }
  return seen;
}

std::string first_lines(const std::string& text, std::size_t max_chars) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  if (t.size() > max_chars) t = t.substr(0, max_chars) + "...";
  return t;
}

namespace {

// The last line of what a command said: where a scheduler's client says why it gave up
// ("squeue: fatal: Could not establish a configuration source" after three lines of
// detail). A backend's health says it on one line.
std::string last_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text.substr(text.rfind('\n') + 1);  // npos + 1 is 0: the whole of a single line
}

}  // namespace

}  // namespace indirect

IndirectBackend::IndirectBackend(Store& store, const Dialect& dialect, CommandQueue& commands,
                                 IndirectConfig config, std::string state_dir, std::string user)
    : store_(store),
      dialect_(dialect),
      commands_(commands),
      config_(config),
      state_dir_(std::move(state_dir)),
      user_(std::move(user)),
      background_(config.calls_per_second, config.burst),
      submits_(config.submits_per_second, 1) {
  // Asked once: the loop's wake-up and each submission's check look at it.
  array_limit_.readable = !dialect_.array_limit_argv().empty() && config_.max_array_size <= 0;
  array_limit_.done = !array_limit_.readable;
}

std::string IndirectBackend::script_path(const Unit& u) const {
  return state_dir_ + "/" + std::string(dialect_.name()) + "/" + u.uid + ".sh";
}

void IndirectBackend::track(const JobRecord& r, std::optional<bool> may_retry) {
  Member m;
  m.id = r.id;
  m.head = r.array_job_id.value_or(r.id);
  m.index = r.array_index;
  m.native_id = r.native_id;
  m.state = r.state;
  auto [it, fresh] = units_.try_emplace(m.head);
  Unit& u = it->second;
  if (fresh) {
    u.head = m.head;
    u.spec_id = r.spec_id;
    u.is_array = r.array_index.has_value();
    u.submit_time = r.submit_time;
    if (!u.is_array && !may_retry) {
      auto spec = store_.spec(r.spec_id);
      may_retry = spec && spec->retry && spec->retry->times > 0;
    }
    u.may_retry = !u.is_array && may_retry.value_or(false);
    // A try the daemon stopped during: its backoff and the nodes it keeps off go on.
    if (u.may_retry) {
      u.next_try = r.retry_not_before;
      u.failed_on = failed_on_of(r.failed_on);
    }
    if (!u.is_array) u.ended_try = r.ended_try;  // a retried or requeued job's last run
  }
  if (r.id == m.head) u.uid = r.uid;
  u.members.push_back(r.id);
  if (!r.native_id.empty()) {
    // The first member's: a scheduler's later elements may have ids of their own.
    if (u.native_base.empty()) u.native_base = native_base_of(r.native_id);
    u.phase = Unit::Phase::Submitted;
    by_native_[r.native_id] = r.id;
  } else if (r.submit_attempts > 0) {
    u.phase = Unit::Phase::ToFind;  // submitted, maybe, just before a crash
  }
  u.cancel_requested = u.cancel_requested || r.cancel_requested;
  // Held before it reached the scheduler, or between two runs: yard keeps it.
  // (Not submitted since it was held: a held job is never sent, so nothing to look up.)
  if (r.held && r.native_id.empty() && (r.submit_attempts == 0 || !r.ended_try.empty())) {
    u.user_held = true;
    u.phase = Unit::Phase::ToSubmit;
  }
  if (r.moving_to == kRequeueMark || r.moving_to == kRequeueHoldMark) {
    // A requeue the daemon stopped during: its run is cancelled (again), then submitted again.
    u.requeueing = !r.native_id.empty();
    u.requeue_hold = r.moving_to == kRequeueHoldMark;
    u.cancel_requested = u.cancel_requested || u.requeueing;
  } else if (!r.moving_to.empty() && !r.native_id.empty()) {  // a move the daemon stopped during: finished now
    u.moving_to = r.moving_to;
    u.cancel_requested = true;
  }
  members_[r.id] = std::move(m);
}

Status IndirectBackend::recover(double now) {
  auto active = store_.active_jobs_of(dialect_.name());
  if (!active) return active.failure();
  for (auto& r : *active) track(r);
  next_poll_ = now;
  return {};
}

Result<std::vector<std::int64_t>> IndirectBackend::submit(JobSpec spec, double now) {
  spec.backend = std::string(dialect_.name());
  if (auto s = check(spec); !s) return s.failure();
  auto ids = store_.insert_jobs(spec, now);
  if (!ids) return ids;
  auto recs = store_.jobs(*ids);
  if (!recs) return recs.failure();
  const bool may_retry = spec.retry && spec.retry->times > 0;
  for (auto& r : *recs) track(r, may_retry);
  return ids;
}

Result<std::vector<std::int64_t>> IndirectBackend::cancel(const std::vector<std::int64_t>& ids) {
  std::vector<std::int64_t> acted;
  for (auto id : ids) {
    // An array's id cancels all its elements.
    std::vector<std::int64_t> targets;
    if (auto u = units_.find(id); u != units_.end()) targets = u->second.members;
    else if (members_.count(id)) targets.push_back(id);
    for (auto t : targets) {
      auto& m = members_.at(t);
      units_.at(m.head).cancel_requested = true;
      if (auto s = store_.request_cancel(t); !s) return s.failure();
      acted.push_back(t);
    }
  }
  return acted;
}

void IndirectBackend::plan(Kind kind, std::vector<std::string> argv, InFlight what, std::string cwd,
                           std::string stdin_path) {
  const std::uint64_t tag = next_tag_++;
  what.kind = kind;
  in_flight_[tag] = std::move(what);
  planned_.push_back({tag, std::move(argv), config_.command_timeout_s, std::move(cwd), std::move(stdin_path)});
  switch (kind) {
    case Kind::Submit: ++stats_.submit_calls; break;
    case Kind::Poll: ++stats_.poll_calls; break;
    case Kind::History: ++stats_.history_calls; break;
    case Kind::Find: ++stats_.find_calls; break;
    case Kind::FindHistory: ++stats_.find_calls; break;
    case Kind::Cancel: ++stats_.cancel_calls; break;
    case Kind::Probe: ++stats_.probe_calls; break;
    case Kind::Act: ++stats_.action_calls; break;
    case Kind::QueueLimits:
    case Kind::ArrayLimit: ++stats_.queue_calls; break;
  }
}

void IndirectBackend::dispatch() {
  for (auto& c : planned_) commands_.post(std::move(c));
  planned_.clear();
}

void IndirectBackend::retry_later(Unit& u, double now) {
  u.backoff = u.backoff == 0 ? 1 : std::min(u.backoff * 2, config_.retry_max_s);
  u.next_try = now + u.backoff;
}

void IndirectBackend::finish(Member& m, JobState to, Transition t, double now) {
  changed_ = true;
  if (m.never_satisfied && to == JobState::Cancelled) t.reason = "DependencyNeverSatisfied";
  if (auto s = store_.transition(m.id, to, t, now); !s) log(dialect_.name(), "job " + std::to_string(m.id) + ": " + s.error());
  else charge(m.id);
  forget(m);
}

void IndirectBackend::fail_unit(Unit& u, const std::string& why, double now) {
  for (auto id : std::vector<std::int64_t>(u.members)) {
    Transition t;
    t.reason = why;
    t.end_time = now;
    finish(members_.at(id), JobState::Failed, t, now);
  }
}

void IndirectBackend::step(double now) {
  for (auto& done : commands_.take_completed()) apply(done, now);

  // Submissions, cancels, look-ups.
  int submitting = 0;
  for (auto& [tag, f] : in_flight_) submitting += f.kind == Kind::Submit;
  queued_ = 0;
  for (auto& [head, u] : units_)
    if (u.phase != Unit::Phase::ToSubmit) queued_ += u.members.size();
  const bool changed = std::exchange(changed_, false);
  std::vector<std::int64_t> lookups;
  for (auto& [head, u] : units_) {
    if (u.busy() || u.members.empty()) continue;
    if (u.cancel_requested) {
      if (u.phase == Unit::Phase::ToSubmit) {
        for (auto id : std::vector<std::int64_t>(u.members)) {
          Transition t;
          t.reason = "cancelled before it was submitted";
          t.end_time = now;
          finish(members_.at(id), JobState::Cancelled, t, now);
        }
        continue;
      }
      if (u.phase == Unit::Phase::Submitted && (u.cancel_sent == 0 || now - u.cancel_sent >= config_.cancel_resend_s)) {
        std::vector<std::string> ids;
        for (auto id : u.members) ids.push_back(members_.at(id).native_id);
        if (!u.moving_to.empty() && dialect_.cancel_pending_argv(ids).empty()) {
          plan_move_by_hold(u, ids, now);
          continue;
        }
        u.cancel_sent = now;
        plan(Kind::Cancel, u.moving_to.empty() ? dialect_.cancel_argv(ids) : dialect_.cancel_pending_argv(ids), {});
        continue;
      }
    }
    if (u.phase == Unit::Phase::ToFind || u.phase == Unit::Phase::ToFindInHistory) {
      lookups.push_back(head);
    } else if (u.phase == Unit::Phase::ToSubmit && (now >= u.next_try || (u.held && changed)) &&
               submitting < kMaxSubmissionsInFlight && !u.cancel_requested) {
      plan_submission(u, now);
      submitting += u.phase == Unit::Phase::Submitting;
    }
  }
  // Not while the scheduler is down: its probe (plan_probe) tells when to look again.
  if (health_.down_why.empty()) plan_lookups(lookups, now);

  // The history of jobs that left the live queue, then the next status cycle.
  if (history_due_ && !to_confirm_.empty() && !history_in_flight_ && !poll_in_flight_ &&
      background_.try_take(now)) {
    history_due_ = false;
    InFlight what;
    std::vector<std::string> ids;
    double since = now;
    for (auto id : to_confirm_) {
      what.members.push_back(id);
      const Member& m = members_.at(id);
      ids.push_back(m.native_id);
      since = std::min(since, units_.at(m.head).submit_time);
    }
    history_in_flight_ = true;
    plan(Kind::History, dialect_.history_argv(ids, since), what);
  }
  if (!poll_in_flight_ && !history_in_flight_ && now >= next_poll_) {
    std::vector<std::string> ids;
    for (auto& [id, m] : members_)
      if (!m.native_id.empty()) ids.push_back(m.native_id);
    if (!ids.empty() && background_.try_take(now)) {
      std::sort(ids.begin(), ids.end());
      poll_in_flight_ = true;
      next_poll_ = now + config_.poll_interval_s;
      plan(Kind::Poll, dialect_.poll_argv(ids), {});
    }
  }
  plan_probe(now);
  plan_queue_limits(now);
  plan_array_limit(now);

  for (auto it = units_.begin(); it != units_.end();)
    it = it->second.members.empty() && !it->second.busy() ? units_.erase(it) : std::next(it);
}

double IndirectBackend::next_wakeup_s(double now) const {
  if (changed_) return 0;  // a change after this step's look at the held jobs: look again
  double wake = kIdleWakeup;
  bool tracked = false;
  for (auto& [id, m] : members_) tracked = tracked || !m.native_id.empty();
  if (tracked && !poll_in_flight_) wake = std::min(wake, std::max(0.0, next_poll_ - now));
  int submitting = 0;  // at the limit, a submission's answer wakes the loop
  for (auto& [tag, f] : in_flight_) submitting += f.kind == Kind::Submit;
  for (auto& [head, u] : units_) {
    if (u.busy() || u.members.empty()) continue;
    if (u.phase == Unit::Phase::ToSubmit && (u.held || submitting < kMaxSubmissionsInFlight))
      wake = std::min(wake, std::max(0.0, u.next_try - now));
    if (u.cancel_requested && u.cancel_sent > 0)
      wake = std::min(wake, std::max(0.0, u.cancel_sent + config_.cancel_resend_s - now));
    const bool down = !health_.down_why.empty();  // look-ups wait for the probe
    if (u.phase == Unit::Phase::ToFind && !down) wake = std::min(wake, 0.1);
    if (u.phase == Unit::Phase::ToFindInHistory && !down)
      wake = std::min(wake, std::max(0.1, u.queue_looked_at + dialect_.history_lag_s() - now));
  }
  if (history_due_ && !to_confirm_.empty()) wake = std::min(wake, 0.1);
  if (!health_.down_why.empty() && !health_.probe_in_flight) wake = std::min(wake, std::max(0.0, health_.next_probe - now));
  if (queues_.listable && !queues_.in_flight && health_.down_why.empty())
    wake = std::min(wake, std::max(0.0, queues_.next_at - now));
  if (!array_limit_.done && !array_limit_.in_flight && health_.down_why.empty() &&
      (!members_.empty() || !queues_.wanted.empty()))
    wake = std::min(wake, std::max(0.0, array_limit_.next_at - now));
  // Token bucket: never wake before a token is there for a background call.
  if (wake < kIdleWakeup && wake < 1 / std::max(config_.calls_per_second, 1e-3))
    wake = std::max(wake, const_cast<RateLimiter&>(background_).wait_s(now));
  return wake;
}

void IndirectBackend::apply(const CompletedCommand& done, double now) {
  auto it = in_flight_.find(done.command.tag);
  if (it == in_flight_.end()) return;
  InFlight what = std::move(it->second);
  in_flight_.erase(it);
  CommandResult r = done.result;
  if (!r.ok() && !r.timed_out && !r.not_started && dialect_.found_nothing(r.exit_code, r.err)) {
    r.exit_code = 0;  // an empty listing
    r.out.clear();
  }
  if (!r.ok() && !r.timed_out && !r.not_started && what.kind != Kind::Submit && what.kind != Kind::Cancel &&
      dialect_.usable_despite(r.exit_code, r.err))
    r.exit_code = 0;  // the records it found are all there; the ids it did not are missing from them

  if (!r.ok()) {
    ++stats_.failed_calls;
    log(dialect_.name(), done.command.argv[0] + " failed (" + r.summary() + ")");
  }
  // A cancel's exit code says nothing (below); an action's refusal is the job's, and a
  // queue listing's may be a queue's (one named that does not exist), not signs that the
  // scheduler is down.
  const bool refusal_is_the_requests =
      what.kind == Kind::Act || what.kind == Kind::QueueLimits || what.kind == Kind::ArrayLimit;
  if (what.kind != Kind::Cancel && (!refusal_is_the_requests || r.timed_out || r.not_started)) {
    // A submission the scheduler refused was answered: only one that could not reach it failed.
    const bool failed = r.timed_out || r.not_started ||
                        (!r.ok() && (what.kind != Kind::Submit || dialect_.transient_failure(r.exit_code, r.err)));
    const std::string said = first_lines(indirect::last_line(r.err.empty() ? r.out : r.err), 200),
                      program = done.command.argv[0];
    note_health(failed, said.rfind(program + ":", 0) == 0 ? said : program + ": " + (said.empty() ? r.summary() : said), now);
  }
  switch (what.kind) {
    case Kind::Submit:
      if (auto u = units_.find(what.head); u != units_.end()) apply_submit(u->second, r, now);
      break;
    case Kind::Poll:
      poll_in_flight_ = false;
      apply_poll(r, done.command.tag, now);
      break;
    case Kind::History:
      history_in_flight_ = false;
      apply_history(what.members, r, now);
      break;
    case Kind::Find:
      find_in_flight_ = false;
      apply_find(what.heads, r);
      break;
    case Kind::FindHistory:
      find_history_in_flight_ = false;
      apply_find_history(what.heads, r);
      break;
    case Kind::Probe:
      health_.probe_in_flight = false;  // note_health() took its answer
      break;
    case Kind::Cancel:
      break;  // exit codes of cancel commands lie (Slurm: 0 for an unknown id); the state tells
    case Kind::Act:
      apply_act(what, r, now);
      break;
    case Kind::QueueLimits:
      apply_queue_limits(r, now);
      break;
    case Kind::ArrayLimit:
      apply_array_limit(r, now);
      break;
  }
}

}  // namespace yard
