// IndirectBackend, part: a user's hold, release or requeue of jobs in a scheduler's queue
// (core/job_action.h), through the scheduler's own command. The command is sent after the
// commit, as every command is; a held job's flag is stored at once (yard status shows it
// held, and a release finds it so), and put back as it was if the scheduler refuses. The
// job's state follows from the status listings: a requeued job is pending again under
// the same native id, then running. A job yard has not submitted yet is held by yard
// itself: it is submitted once released.
#include <algorithm>
#include <set>

#include "backends/indirect_backend.h"
#include "backends/indirect_shared.h"

namespace yard {

using namespace indirect;  // NOLINT: the engine's own helpers (first_lines, log)

Result<std::vector<std::int64_t>> IndirectBackend::act(JobAction action, const std::vector<std::int64_t>& ids,
                                                       const std::vector<JobRecord>& jobs, double now) {
  if (action == JobAction::Requeue || action == JobAction::RequeueHold) return requeue(action, ids, jobs, now);
  // Every job named by its own id must allow the action, or nothing is done; an array's
  // elements named by the array's id are those that allow it.
  std::vector<std::int64_t> acting, kept;  // kept: not submitted yet, held or released by yard itself
  const bool holding = action == JobAction::Hold || action == JobAction::Release;
  for (const auto& j : jobs) {
    const bool named = std::find(ids.begin(), ids.end(), j.id) != ids.end();
    std::string why = job_action_refusal(action, j);
    auto m = members_.find(j.id);
    const Unit* u = m == members_.end() ? nullptr : &units_.at(m->second.head);
    if (why.empty() && holding && u && u->phase == Unit::Phase::ToSubmit) {
      kept.push_back(j.id);
      continue;
    }
    if (why.empty() && (!u || m->second.native_id.empty()))
      why = "job " + std::to_string(j.id) + " has not reached " + std::string(dialect_.name()) +
            "'s queue yet (yard status shows its native id once it has)";
    if (why.empty()) acting.push_back(j.id);
    else if (named) return err(why);
  }
  // An array not submitted yet goes to the scheduler whole: held or released whole.
  const std::set<std::int64_t> kept_ids(kept.begin(), kept.end());
  std::set<std::int64_t> heads;
  for (auto id : kept) {
    const Unit& u = units_.at(members_.at(id).head);
    if (!heads.insert(u.head).second) continue;  // its members looked at already
    for (auto member : u.members)
      if (!kept_ids.count(member))
        return err("job " + std::to_string(id) + " is an element of array " + std::to_string(u.head) + ", which reaches " +
                   std::string(dialect_.name()) + " whole: " + std::string(to_string(action)) + " the array (" +
                   std::to_string(u.head) + ")");
  }
  for (auto id : kept) {
    Unit& u = units_.at(members_.at(id).head);
    u.user_held = action == JobAction::Hold;
    if (!u.user_held) u.next_try = now;  // submitted at once
    Status s = u.user_held ? store_.set_held(id, true, held_detail(action), now)
                           : store_.set_held(id, false, "released (yard release)", now);
    if (!s) return s.failure();
    changed_ = true;
  }
  if (!acting.empty()) plan_action(action, acting, 0);
  for (auto id : acting) {
    Status s;
    if (action == JobAction::Release) s = store_.set_held(id, false, "released (yard release)", now);
    else if (action != JobAction::Requeue) s = store_.set_held(id, true, held_detail(action), now);
    if (!s) return s.failure();
  }
  if (!acting.empty()) changed_ = true;
  acting.insert(acting.end(), kept.begin(), kept.end());
  return acting;
}

void IndirectBackend::plan_action(JobAction action, const std::vector<std::int64_t>& members, std::int64_t moving) {
  InFlight what;
  what.action = action;
  what.moving = moving;
  std::vector<std::string> native;
  for (auto id : members) native.push_back(members_.at(id).native_id);
  auto argv = dialect_.action_argv(action, native);
  if (!argv.empty() || members.size() < 2) {
    what.members = members;
    plan(Kind::Act, std::move(argv), what);
    return;
  }
  // A command that takes one job at a time: one for each.
  for (std::size_t k = 0; k < members.size(); ++k) {
    what.members = {members[k]};
    plan(Kind::Act, dialect_.action_argv(action, {native[k]}), what);
  }
}

void IndirectBackend::apply_act(const InFlight& what, const CommandResult& r, double now) {
  if (what.moving) {  // the hold of a job leaving the queue (indirect_moves.cpp)
    auto u = units_.find(what.moving);
    if (u == units_.end() || u->second.moving_to.empty()) return;
    if (r.ok()) {
      u->second.move_listing_after = next_tag_;  // listings planned from now on
      u->second.move_hold_ours = true;
    } else {
      stay(u->second, std::string(dialect_.name()) + " did not hold it (" + first_lines(r.err.empty() ? r.out : r.err, 200) + ")");
    }
    return;
  }
  if (r.ok()) return;  // the next status listing shows what the scheduler did
  const std::string said = first_lines(r.err.empty() ? r.out : r.err, 200);
  const std::string refused = std::string(dialect_.name()) + " refused the " + std::string(to_string(what.action)) +
                              (said.empty() ? " (" + r.summary() + ")" : ": " + said);
  for (auto id : what.members) {
    if (!members_.count(id)) continue;  // ended meanwhile
    Status s;
    if (what.action == JobAction::Release) s = store_.set_held(id, true, "still held: " + refused, now);
    else if (what.action != JobAction::Requeue) s = store_.set_held(id, false, "not held: " + refused, now);
    if (!s) log(dialect_.name(), "job " + std::to_string(id) + ": " + s.error());
  }
  log(dialect_.name(), "jobs " + std::to_string(what.members.front()) + (what.members.size() > 1 ? "..." : "") + ": " + refused);
}

}  // namespace yard
