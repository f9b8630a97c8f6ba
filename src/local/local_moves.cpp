// Jobs moved between backends (`yard routes move`, backends/backend_moves.cpp): a pending
// job given up leaves the queue and the dependency tracker as if it had never come, and
// one moved here enters them as recovery would enter it.
#include "local/local_backend.h"

#include <filesystem>

namespace yard {

std::string LocalBackend::release(std::int64_t id, bool dry_run) {
  if (running_.count(id)) return "running";
  auto it = pending_.find(id);
  if (it == pending_.end()) return "not a pending job of backend " + name_;
  if (it->second.array_job_id) return "an element of array " + std::to_string(it->second.array_job_id) + ": arrays stay";
  if (dry_run) return "";
  queue_.remove(id);
  deps_.remove(id);
  retry_at_.erase(id);
  pending_.erase(it);
  // Jobs here waiting on it wait on another backend's job from now on: looked at in the store.
  watched_parents_.insert(id);
  return "";
}

Status LocalBackend::adopt(const JobRecord& job) {
  if (job.state != JobState::Pending) return err("job " + std::to_string(job.id) + " is not pending");
  auto edges = store_.dependencies_of_active();
  if (!edges) return edges.failure();
  ParentStates parents;
  for (auto& e : *edges) {
    if (e.job_id != job.id) continue;
    auto p = store_.job(e.parent_id);
    if (!p) return p.failure();
    parents.push_back({Dependency{e.kind, e.parent_id}, *p ? (**p).state : JobState::Unknown});
  }
  // A job submitted to a cluster backend kept its script there: the launch here runs it
  // from script_path.
  auto spec = spec_for(job.spec_id);
  if (spec && *spec && !std::filesystem::exists(script_path(job.spec_id)))
    if (auto s = save_script(job.spec_id, (*spec)->script); !s) return s;
  enqueue_pending(job);
  if (job.held) queue_.hold(job.id);  // a user's hold goes with the job
  if (job.retry_not_before > clock_.wall()) retry_at_[job.id] = job.retry_not_before;
  ParentElements elements;
  add_dependencies(job.id, for_element(parents, job.array_index, elements), spec && *spec && (*spec)->dependency_any);
  return {};
}

}  // namespace yard
