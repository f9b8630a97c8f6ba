// Jobs moved between backends (`yard routes move`, backends/backend_moves.cpp). A job yard
// still holds is given up at once. One in the scheduler's queue leaves through a cancel
// the scheduler applies only to a job that has not started (Dialect::cancel_pending_argv),
// or, where it has none, through its hold (Dialect::action_argv), then a cancel once a
// status listing made after the hold took still shows it pending:
// the store notes where it goes first (moving_to), so a restarted daemon finishes the
// move; once its record shows it ended without having run, it is handed over; if it
// started first, it stays and runs here. A job whose submission may have gone through is
// looked up first, and stays meanwhile.
#include "backends/indirect_backend.h"
#include "backends/indirect_shared.h"

namespace yard {

using indirect::log;

Release IndirectBackend::release(std::int64_t id, const std::string& to, bool dry_run) {
  const std::string name(dialect_.name());
  auto m = members_.find(id);
  auto it = m == members_.end() ? units_.end() : units_.find(m->second.head);
  if (it == units_.end()) return {Release::Stays, "not a job of backend " + name};
  Unit& u = it->second;
  const std::string there = name + "'s queue";
  if (u.is_array || u.members.size() > 1) return {Release::Stays, "an array: arrays stay"};
  if (!u.moving_to.empty()) return {Release::Stays, "already leaving " + there + " for " + u.moving_to};
  if (u.cancel_requested) return {Release::Stays, "being cancelled"};
  if (!m->second.native_id.empty()) {
    if (m->second.state != JobState::Pending) return {Release::Stays, "started in " + name};
    if (dialect_.cancel_pending_argv({m->second.native_id}).empty() &&
        dialect_.action_argv(JobAction::Hold, {m->second.native_id}).empty())
      return {Release::Stays, "in " + there + " as " + m->second.native_id + ": " + name +
                                  " cannot take a job out of its queue without racing its start"};
    if (dry_run) return {Release::Leaving, ""};
    if (auto s = store_.set_moving_to(id, to); !s) return {Release::Stays, "its move cannot be recorded: " + s.error()};
    u.moving_to = to;
    u.cancel_requested = true;  // sent by step(), as a cancel that spares a started job
    u.cancel_sent = 0;
    return {Release::Leaving, ""};
  }
  if (u.phase == Unit::Phase::Submitting) return {Release::Stays, "its submission to " + there + " is under way"};
  if (u.phase != Unit::Phase::ToSubmit) return {Release::Stays, "its submission may have gone through: being looked up in " + there};
  if (dry_run) return {Release::Given, ""};
  forget(m->second);
  changed_ = true;  // jobs held on it look again
  return {Release::Given, ""};
}

bool IndirectBackend::hand_over(Member& m, bool ran) {
  Unit& u = units_.at(m.head);
  if (ran) {
    stay(u, "it started in " + std::string(dialect_.name()) + " before it could be taken out of the queue");
    return false;
  }
  log(dialect_.name(), "job " + std::to_string(m.id) + " left the queue for " + u.moving_to);
  released_.push_back(m.id);
  forget(m);
  changed_ = true;
  return true;
}

void IndirectBackend::plan_move_by_hold(Unit& u, const std::vector<std::string>& native_ids, double now) {
  if (!u.move_hold_sent) {
    // Held, the job cannot start any more: a listing made after the hold took that still
    // shows it pending shows it can be deleted without racing its start. A job its user
    // holds already is held (a second hold may be refused as such).
    bool held = true;
    for (auto id : u.members) {
      auto r = store_.job(id);
      held = held && r && *r && (**r).held;
    }
    if (held) {
      u.move_hold_sent = true;
      u.move_listing_after = next_tag_;
      return;
    }
    plan_action(JobAction::Hold, u.members, u.head);
    u.move_hold_sent = true;
    return;
  }
  if (u.move_listing_after == 0 || last_listing_ < u.move_listing_after) return;
  for (auto id : u.members)
    if (members_.at(id).state != JobState::Pending) return;  // it started: update() keeps it here
  if (u.cancel_sent > 0 && now - u.cancel_sent < config_.cancel_resend_s) return;
  u.cancel_sent = now;
  plan(Kind::Cancel, dialect_.cancel_argv(native_ids), {});
}

void IndirectBackend::stay(Unit& u, const std::string& why) {
  log(dialect_.name(), "job " + std::to_string(u.head) + " stays: " + why);
  // It stays as its user left it: not held. The answer changes nothing (apply_act: the
  // unit no longer moves).
  if (u.move_hold_ours) plan_action(JobAction::Release, u.members, u.head);
  u.moving_to.clear();
  u.cancel_requested = false;
  u.cancel_sent = 0;
  u.move_hold_sent = false;
  u.move_listing_after = 0;
  u.move_hold_ours = false;
  for (auto id : u.members)
    if (auto s = store_.set_moving_to(id, ""); !s) log(dialect_.name(), s.error());
}

Status IndirectBackend::adopt(const JobRecord& job) {
  if (job.state != JobState::Pending) return err("job " + std::to_string(job.id) + " is not pending");
  // A held job is kept by yard, unsubmitted, until released (track() reads its flag).
  if (members_.count(job.id)) return {};
  track(job);
  changed_ = true;
  return {};
}

}  // namespace yard
