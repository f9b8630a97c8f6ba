// IndirectBackend, part: a user's hold, release or requeue of jobs in a scheduler's queue
// (core/job_action.h), through the scheduler's own command. The command is sent after the
// commit, as every command is; a held job's flag is stored at once (yard status shows it
// held, and a release finds it so), and put back as it was if the scheduler refuses. The
// job's state follows from the status listings: a requeued job is pending again under
// the same native id, then running.
#include <algorithm>

#include "backends/indirect_backend.h"
#include "backends/indirect_shared.h"

namespace yard {

using namespace indirect;  // NOLINT: the engine's own helpers (first_lines, log)

Result<std::vector<std::int64_t>> IndirectBackend::act(JobAction action, const std::vector<std::int64_t>& ids,
                                                       const std::vector<JobRecord>& jobs, double now) {
  // Every job named by its own id must allow the action, or nothing is done; an array's
  // elements named by the array's id are those that allow it.
  std::vector<std::int64_t> acting;
  for (const auto& j : jobs) {
    const bool named = std::find(ids.begin(), ids.end(), j.id) != ids.end();
    std::string why = job_action_refusal(action, j);
    auto m = members_.find(j.id);
    if (why.empty() && (m == members_.end() || m->second.native_id.empty()))
      why = "job " + std::to_string(j.id) + " has not reached " + std::string(dialect_.name()) +
            "'s queue yet (yard status shows its native id once it has)";
    if (why.empty()) acting.push_back(j.id);
    else if (named) return err(why);
  }
  if (acting.empty()) return acting;
  InFlight what;
  what.members = acting;
  what.action = action;
  std::vector<std::string> native;
  for (auto id : acting) native.push_back(members_.at(id).native_id);
  plan(Kind::Act, dialect_.action_argv(action, native), what);
  for (auto id : acting) {
    Status s;
    if (action == JobAction::Release) s = store_.set_held(id, false, "released (yard release)", now);
    else if (action != JobAction::Requeue) s = store_.set_held(id, true, held_detail(action), now);
    if (!s) return s.failure();
  }
  changed_ = true;
  return acting;
}

void IndirectBackend::apply_act(const InFlight& what, const CommandResult& r, double now) {
  if (what.moving) {  // the hold of a job leaving the queue (indirect_moves.cpp)
    auto u = units_.find(what.moving);
    if (u == units_.end() || u->second.moving_to.empty()) return;
    if (r.ok()) u->second.move_listing_after = next_tag_, u->second.move_hold_ours = true;  // listings planned from now on
    else stay(u->second, std::string(dialect_.name()) + " did not hold it (" + first_lines(r.err.empty() ? r.out : r.err, 200) + ")");
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
