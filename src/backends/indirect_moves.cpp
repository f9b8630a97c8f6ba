// Jobs moved between backends (`yard routes move`, backends/backend_moves.cpp). Only a
// job yard still holds moves: one in the scheduler's queue, or whose submission may have
// gone through, would have to leave that queue first, and a cancel there can race its
// start; it stays, saying so.
#include "backends/indirect_backend.h"

namespace yard {

std::string IndirectBackend::release(std::int64_t id, bool dry_run) {
  auto m = members_.find(id);
  if (m == members_.end()) return "not a job of backend " + std::string(dialect_.name());
  auto it = units_.find(m->second.head);
  if (it == units_.end()) return "not a job of backend " + std::string(dialect_.name());
  Unit& u = it->second;
  const std::string there = std::string(dialect_.name()) + "'s queue";
  if (u.is_array || u.members.size() > 1) return "an array: arrays stay";
  if (u.cancel_requested) return "being cancelled";
  if (!m->second.native_id.empty()) return "in " + there + " as " + m->second.native_id + ": jobs in a scheduler's queue stay";
  if (u.phase != Unit::Phase::ToSubmit) return "its submission may have gone through: being looked up in " + there;
  if (dry_run) return "";
  members_.erase(m);
  units_.erase(it);
  changed_ = true;  // jobs held on it look again
  return "";
}

Status IndirectBackend::adopt(const JobRecord& job) {
  if (job.state != JobState::Pending) return err("job " + std::to_string(job.id) + " is not pending");
  if (members_.count(job.id)) return {};
  track(job);
  changed_ = true;
  return {};
}

}  // namespace yard
