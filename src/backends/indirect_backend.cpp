#include "backends/indirect_backend.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "backends/output_paths.h"
#include "core/text.h"

namespace yard {
namespace {

constexpr int kMaxSubmissionsInFlight = 4;  // so status calls still get their turn
constexpr double kIdleWakeup = 3600;

void log(std::string_view backend, const std::string& what) {
  std::cerr << "yard daemon: " << backend << ": " << what << std::endl;
}

double steady_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// "123", "123_4", "123_[4-9]", "123+1" -> "123".
std::string native_base_of(std::string_view native_id) {
  return std::string(native_id.substr(0, native_id.find_first_of("_+[")));
}

// Statuses by native id. A heterogeneous job is one yard job tracked by its base id N
// (what the submit command returns), but the scheduler lists its components as N+0,
// N+1, ...: component 0, where the job's command runs and whose exit code is the job's,
// also answers for N. (Slurm starts and ends all components together; one that cannot
// run makes the submission fail.) In order: the last record of a requeued job wins.
std::unordered_map<std::string, const NativeStatus*> by_native_id(const std::vector<NativeStatus>& statuses) {
  std::unordered_map<std::string, const NativeStatus*> seen;
  for (auto& s : statuses) {
    seen[s.native_id] = &s;
    const auto& id = s.native_id;
    if (id.size() > 2 && id.compare(id.size() - 2, 2, "+0") == 0) seen[id.substr(0, id.size() - 2)] = &s;
  }
  return seen;
}

std::string first_lines(const std::string& text, std::size_t max_chars = 400) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  if (t.size() > max_chars) t = t.substr(0, max_chars) + "...";
  return t;
}

}  // namespace

IndirectBackend::IndirectBackend(Store& store, const Dialect& dialect, CommandQueue& commands,
                                 IndirectConfig config, std::string state_dir, std::string user)
    : store_(store),
      dialect_(dialect),
      commands_(commands),
      config_(config),
      state_dir_(std::move(state_dir)),
      user_(std::move(user)),
      background_(config.calls_per_second, config.burst) {}

std::string IndirectBackend::script_path(const Unit& u) const {
  return state_dir_ + "/" + std::string(dialect_.name()) + "/" + u.uid + ".sh";
}

void IndirectBackend::track(const JobRecord& r) {
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
  }
  if (r.id == m.head) u.uid = r.uid;
  u.members.push_back(r.id);
  if (!r.native_id.empty()) {
    u.native_base = native_base_of(r.native_id);
    by_native_[r.native_id] = r.id;
  } else if (r.submit_attempts > 0) {
    u.needs_lookup = true;  // submitted, maybe, just before a crash
  }
  u.cancel_requested = u.cancel_requested || r.cancel_requested;
  members_[r.id] = std::move(m);
}

Status IndirectBackend::recover(double now) {
  auto active = store_.active_jobs_of(dialect_.name());
  if (!active) return Error{active.error()};
  for (auto& r : *active) track(r);
  next_poll_ = now;
  return {};
}

Result<std::vector<std::int64_t>> IndirectBackend::submit(JobSpec spec, double now) {
  spec.backend = std::string(dialect_.name());
  if (auto s = spec.validate(); !s) return Error{s.error()};
  for (auto& d : spec.dependencies) {
    auto parent = store_.job(d.job_id);
    if (!parent) return Error{parent.error()};
    if (!parent->has_value()) return err("dependency on unknown job " + std::to_string(d.job_id));
    if ((*parent)->backend != spec.backend)
      return err("job " + std::to_string(d.job_id) + " runs on backend '" + (*parent)->backend +
                 "': dependencies across backends are not supported (this job is for '" + spec.backend + "')");
  }
  // Everything the batch script needs is checked now, so bad input fails the submit
  // command instead of a job later.
  SubmitContext probe;
  probe.uid = "yd0000000000000000";
  probe.stdout_path = "/dev/null";
  if (auto s = dialect_.batch_script(spec, probe); !s) return Error{s.error()};
  auto ids = store_.insert_jobs(spec, now);
  if (!ids) return ids;
  auto recs = store_.jobs(*ids);
  if (!recs) return Error{recs.error()};
  for (auto& r : *recs) track(r);
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
      if (auto s = store_.request_cancel(t); !s) return Error{s.error()};
      acted.push_back(t);
    }
  }
  return acted;
}

void IndirectBackend::plan(Kind kind, std::vector<std::string> argv, InFlight what) {
  const std::uint64_t tag = next_tag_++;
  what.kind = kind;
  in_flight_[tag] = std::move(what);
  planned_.push_back({tag, std::move(argv), config_.command_timeout_s});
  switch (kind) {
    case Kind::Submit: ++stats_.submit_calls; break;
    case Kind::Poll: ++stats_.poll_calls; break;
    case Kind::History: ++stats_.history_calls; break;
    case Kind::Find: ++stats_.find_calls; break;
    case Kind::FindHistory: ++stats_.find_calls; break;
    case Kind::Cancel: ++stats_.cancel_calls; break;
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
  if (m.never_satisfied && to == JobState::Cancelled) t.reason = "DependencyNeverSatisfied";
  if (auto s = store_.transition(m.id, to, t, now); !s) log(dialect_.name(), "job " + std::to_string(m.id) + ": " + s.error());
  const std::int64_t id = m.id, head = m.head;
  by_native_.erase(m.native_id);
  to_confirm_.erase(id);
  members_.erase(id);  // m dangles from here
  auto& u = units_.at(head);
  u.members.erase(std::remove(u.members.begin(), u.members.end(), id), u.members.end());
}

void IndirectBackend::fail_unit(Unit& u, const std::string& why, double now) {
  for (auto id : std::vector<std::int64_t>(u.members)) {
    Transition t;
    t.reason = why;
    t.end_time = now;
    finish(members_.at(id), JobState::Failed, t, now);
  }
}

void IndirectBackend::set_native(Unit& u, const std::string& base) {
  u.native_base = base;
  u.needs_lookup = false;
  u.backoff = 0;
  for (auto id : u.members) {
    auto& m = members_.at(id);
    m.native_id = u.is_array && m.index ? base + "_" + std::to_string(*m.index) : base;
    m.known_from_tag = next_tag_;
    by_native_[m.native_id] = id;
    if (auto s = store_.set_native_id(id, m.native_id); !s) log(dialect_.name(), s.error());
  }
}

Result<SubmitContext> IndirectBackend::context_for(const Unit& u, const JobSpec& spec, bool& wait,
                                                   std::string& doomed) {
  SubmitContext ctx;
  ctx.uid = u.uid;
  auto paths = output_paths(spec, u.head, u.is_array, user_);
  ctx.stdout_path = paths.native_out;
  ctx.stderr_path = paths.native_err;
  for (auto& d : spec.dependencies) {
    std::string native;
    if (auto pu = units_.find(d.job_id); pu != units_.end()) {
      native = pu->second.native_base;  // a whole array, or a single job
      if (native.empty()) {
        wait = true;
        return ctx;
      }
    } else if (auto pm = members_.find(d.job_id); pm != members_.end()) {
      native = pm->second.native_id;
      if (native.empty()) {
        wait = true;
        return ctx;
      }
    } else {
      // The parent has ended: judge the dependency here (the scheduler may have
      // forgotten the parent already).
      auto parent = store_.job(d.job_id);
      if (!parent) return Error{parent.error()};
      if (!parent->has_value()) return err("dependency on unknown job " + std::to_string(d.job_id));
      switch (evaluate(d.kind, (*parent)->state)) {
        case DependencyVerdict::Satisfied: continue;
        case DependencyVerdict::NeverSatisfied: doomed = "DependencyNeverSatisfied"; return ctx;
        case DependencyVerdict::Waiting:
          return err("job " + std::to_string(d.job_id) + " is not tracked by backend '" +
                     std::string(dialect_.name()) + "'");
      }
    }
    ctx.dependencies.push_back({d.kind, native});
  }
  return ctx;
}

void IndirectBackend::plan_submission(Unit& u, double now) {
  auto spec = store_.spec(u.spec_id);
  if (!spec) {
    fail_unit(u, spec.error(), now);
    return;
  }
  bool wait = false;
  std::string doomed;
  auto ctx = context_for(u, *spec, wait, doomed);
  if (!ctx) {
    fail_unit(u, ctx.error(), now);
    return;
  }
  if (wait) return;  // a parent is not submitted yet
  if (!doomed.empty()) {
    for (auto id : std::vector<std::int64_t>(u.members)) {
      Transition t;
      t.reason = doomed;
      t.end_time = now;
      finish(members_.at(id), JobState::Cancelled, t, now);
    }
    return;
  }
  auto script = dialect_.batch_script(*spec, *ctx);
  if (!script) {
    fail_unit(u, script.error(), now);
    return;
  }
  // Saved beside the job: it can be read and rerun by hand.
  const std::string path = script_path(u);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  {
    std::ofstream f(path, std::ios::trunc);
    f << *script;
    if (!f.flush()) {
      log(dialect_.name(), "cannot write batch script " + path);
      retry_later(u, now);
      return;
    }
  }
  ::chmod(path.c_str(), 0700);
  // Noted before the command runs (this transaction commits before dispatch()): after a
  // crash, the job is looked up by its UID instead of being submitted again.
  for (auto id : u.members)
    if (auto s = store_.note_submit_attempt(id); !s) {
      log(dialect_.name(), s.error());
      return;
    }
  u.in_flight = true;
  InFlight what;
  what.head = u.head;
  plan(Kind::Submit, dialect_.submit_argv(path), what);
}

void IndirectBackend::step(double now) {
  for (auto& done : commands_.take_completed()) apply(done, now);

  // Submissions, cancels, look-ups.
  int submitting = 0;
  for (auto& [tag, f] : in_flight_) submitting += f.kind == Kind::Submit;
  std::vector<std::int64_t> lookups;
  for (auto& [head, u] : units_) {
    if (u.in_flight || u.members.empty()) continue;
    if (u.cancel_requested) {
      if (u.native_base.empty() && !u.needs_lookup) {
        for (auto id : std::vector<std::int64_t>(u.members)) {
          Transition t;
          t.reason = "cancelled before it was submitted";
          t.end_time = now;
          finish(members_.at(id), JobState::Cancelled, t, now);
        }
        continue;
      }
      if (!u.native_base.empty() && (u.cancel_sent == 0 || now - u.cancel_sent >= config_.cancel_resend_s)) {
        std::vector<std::string> ids;
        for (auto id : u.members) ids.push_back(members_.at(id).native_id);
        u.cancel_sent = now;
        plan(Kind::Cancel, dialect_.cancel_argv(ids), {});
        continue;
      }
    }
    if (!u.native_base.empty()) continue;
    if (u.needs_lookup) {
      lookups.push_back(head);
    } else if (now >= u.next_try && submitting < kMaxSubmissionsInFlight && !u.cancel_requested) {
      plan_submission(u, now);
      submitting += u.in_flight;
    }
  }
  plan_lookups(lookups, now);

  // The history of jobs that left the live queue, then the next status cycle.
  if (history_due_ && !to_confirm_.empty() && !history_in_flight_ && !poll_in_flight_ &&
      background_.try_take(now)) {
    history_due_ = false;
    InFlight what;
    std::vector<std::string> ids;
    for (auto id : to_confirm_) {
      what.members.push_back(id);
      ids.push_back(members_.at(id).native_id);
    }
    history_in_flight_ = true;
    plan(Kind::History, dialect_.history_argv(ids), what);
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

  for (auto it = units_.begin(); it != units_.end();)
    it = it->second.members.empty() && !it->second.in_flight ? units_.erase(it) : std::next(it);
}

double IndirectBackend::next_wakeup_s(double now) const {
  double wake = kIdleWakeup;
  bool tracked = false;
  for (auto& [id, m] : members_) tracked = tracked || !m.native_id.empty();
  if (tracked && !poll_in_flight_) wake = std::min(wake, std::max(0.0, next_poll_ - now));
  for (auto& [head, u] : units_) {
    if (u.in_flight || u.members.empty()) continue;
    if (u.native_base.empty() && !u.needs_lookup) wake = std::min(wake, std::max(0.0, u.next_try - now));
    if (u.cancel_requested && u.cancel_sent > 0)
      wake = std::min(wake, std::max(0.0, u.cancel_sent + config_.cancel_resend_s - now));
    if (u.needs_lookup) wake = std::min(wake, 0.1);
  }
  if (history_due_ && !to_confirm_.empty()) wake = std::min(wake, 0.1);
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
  const auto& r = done.result;
  if (!r.ok()) {
    ++stats_.failed_calls;
    log(dialect_.name(), done.command.argv[0] + " failed (" + r.summary() + ")");
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
    case Kind::Cancel:
      break;  // exit codes of cancel commands lie (Slurm: 0 for an unknown id); the state tells
  }
}

void IndirectBackend::apply_submit(Unit& u, const CommandResult& r, double now) {
  u.in_flight = false;
  if (r.ok()) {
    auto native = dialect_.parse_submit(r.out);
    if (native) {
      set_native(u, *native);
      return;
    }
    log(dialect_.name(), "unexpected answer to a submission: " + native.error());
    u.needs_lookup = true;
    retry_later(u, now);
    return;
  }
  if (r.not_started) {
    fail_unit(u, std::string(dialect_.name()) + ": " + r.err, now);
    return;
  }
  if (r.timed_out || dialect_.transient_failure(r.exit_code, r.err)) {
    // A submission that timed out may have gone through: look it up before retrying.
    u.needs_lookup = true;
    retry_later(u, now);
    return;
  }
  std::string why = first_lines(r.err.empty() ? r.out : r.err);
  fail_unit(u, "rejected by " + std::string(dialect_.name()) + ": " + (why.empty() ? r.summary() : why), now);
}

void IndirectBackend::update(Member& m, const NativeStatus& s, const MappedState& mapped, double now) {
  m.missing_since = 0;
  if (mapped.state == JobState::Pending && mapped.detail.find("DependencyNeverSatisfied") != std::string::npos &&
      !m.never_satisfied) {
    // The scheduler keeps such a job pending forever; like the local backend, cancel it.
    m.never_satisfied = true;
    units_.at(m.head).cancel_requested = true;
    if (auto st = store_.request_cancel(m.id); !st) log(dialect_.name(), st.error());
  }
  if (mapped.state == m.state) return;
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
  const double t0 = steady_now();
  auto statuses = dialect_.parse_poll(r.out);
  if (!statuses) {
    log(dialect_.name(), "cannot read the status output: " + statuses.error());
    ++stats_.failed_calls;
    return;
  }
  poll_backoff_ = 0;
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
    if (is_terminal(mapped.state)) {
      to_confirm_.insert(id);  // ended: the history has its exit code
      continue;
    }
    to_confirm_.erase(id);
    update(m, *it->second, mapped, now);
  }
  history_due_ = !to_confirm_.empty();  // once per status cycle, not once per step
  stats_.last_poll_parse_s = steady_now() - t0;
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
    if (it == seen.end()) {
      // Still listed by the queue (as ended): the history lags behind, nothing is gone.
      if (m.listed) continue;
      if (m.missing_since == 0) m.missing_since = now;
      if (now - m.missing_since >= config_.lost_after_s) {
        Transition t;
        t.reason = "gone from both the queue and the accounting of " + std::string(dialect_.name()) + " for " +
                   std::to_string(static_cast<int>(now - m.missing_since)) + " s";
        t.end_time = now;
        finish(m, JobState::Lost, t, now);
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
    finish(m, mapped.state, t, now);
  }
}

// Submissions whose id was never stored: first the live listing, one call for all of
// them; those it does not show, then the history by name, one call for all of them.
void IndirectBackend::plan_lookups(const std::vector<std::int64_t>& heads, double now) {
  std::vector<std::int64_t> in_queue, in_history;
  for (auto h : heads) (units_.at(h).queue_missed ? in_history : in_queue).push_back(h);
  if (!in_queue.empty() && !find_in_flight_ && background_.try_take(now)) {
    InFlight what;
    what.heads = in_queue;
    for (auto h : in_queue) units_.at(h).in_flight = true;
    find_in_flight_ = true;
    plan(Kind::Find, dialect_.find_argv(), what);
  }
  if (in_history.empty() || find_history_in_flight_) return;
  std::vector<std::string> names;
  double since = now;
  for (auto h : in_history) {
    const Unit& u = units_.at(h);
    auto spec = store_.spec(u.spec_id);
    names.push_back(dialect_.native_name(u.uid, spec ? spec->name : ""));
    since = std::min(since, u.submit_time);
  }
  auto argv = dialect_.find_history_argv(names, since);
  if (argv.empty()) {
    // A scheduler without a history: the listing decided, it never got there.
    for (auto h : in_history) units_.at(h).needs_lookup = units_.at(h).queue_missed = false;
    return;
  }
  if (!background_.try_take(now)) return;
  InFlight what;
  what.heads = in_history;
  for (auto h : in_history) units_.at(h).in_flight = true;
  find_history_in_flight_ = true;
  plan(Kind::FindHistory, std::move(argv), what);
}

std::optional<std::unordered_map<std::string, std::string>> IndirectBackend::found_by_uid(
    const std::vector<std::int64_t>& heads, const CommandResult& r, bool queue_format) {
  for (auto h : heads)
    if (auto u = units_.find(h); u != units_.end()) u->second.in_flight = false;
  if (!r.ok()) return std::nullopt;  // looked up again next step; never submitted on a failed look-up
  auto statuses = queue_format ? dialect_.parse_poll(r.out) : dialect_.parse_history(r.out);
  if (!statuses && queue_format) statuses = dialect_.parse_history(r.out);
  if (!statuses) {
    log(dialect_.name(), "cannot read the look-up output: " + statuses.error());
    return std::nullopt;
  }
  std::unordered_map<std::string, std::string> base_by_uid;
  for (auto& s : *statuses)
    if (auto uid = dialect_.uid_from_native_name(s.name)) base_by_uid[*uid] = native_base_of(s.native_id);
  return base_by_uid;
}

void IndirectBackend::apply_find(const std::vector<std::int64_t>& heads, const CommandResult& r) {
  auto found = found_by_uid(heads, r, true);
  if (!found) return;
  const auto& base_by_uid = *found;
  for (auto h : heads) {
    auto u = units_.find(h);
    if (u == units_.end()) continue;
    if (auto it = base_by_uid.find(u->second.uid); it != base_by_uid.end()) {
      log(dialect_.name(), "job " + std::to_string(h) + " was submitted before the restart as " + it->second +
                               "; tracking it");
      set_native(u->second, it->second);
    } else {
      u->second.queue_missed = true;  // gone from the queue already? the history tells
    }
  }
}

void IndirectBackend::apply_find_history(const std::vector<std::int64_t>& heads, const CommandResult& r) {
  auto found = found_by_uid(heads, r, false);
  if (!found) return;
  const auto& base_by_uid = *found;
  for (auto h : heads) {
    auto u = units_.find(h);
    if (u == units_.end()) continue;
    u->second.queue_missed = false;
    if (auto it = base_by_uid.find(u->second.uid); it != base_by_uid.end()) {
      log(dialect_.name(), "job " + std::to_string(h) + " was submitted before the restart as " + it->second +
                               " and has left the queue; its record is in the history");
      set_native(u->second, it->second);
    } else {
      u->second.needs_lookup = false;  // in neither: it never reached the scheduler, submit it
    }
  }
}

}  // namespace yard
