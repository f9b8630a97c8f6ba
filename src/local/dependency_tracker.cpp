#include "local/dependency_tracker.h"

namespace yard {

DependencyTracker::Verdicts DependencyTracker::add(std::int64_t job,
                                                   const std::vector<std::pair<Dependency, JobState>>& deps) {
  Verdicts v;
  int unresolved = 0;
  for (auto& [dep, parent_state] : deps) {
    switch (evaluate(dep.kind, parent_state)) {
      case DependencyVerdict::Satisfied: break;
      case DependencyVerdict::NeverSatisfied: v.doomed.push_back(job); return v;
      case DependencyVerdict::Waiting: ++unresolved; break;
    }
  }
  if (unresolved == 0) {
    v.ready.push_back(job);
    return v;
  }
  remaining_[job] = unresolved;
  for (auto& [dep, parent_state] : deps)
    if (evaluate(dep.kind, parent_state) == DependencyVerdict::Waiting)
      children_.emplace(dep.job_id, std::make_pair(job, dep.kind));
  return v;
}

DependencyTracker::Verdicts DependencyTracker::parent_ended(std::int64_t parent, JobState state) {
  Verdicts v;
  auto [first, last] = children_.equal_range(parent);
  std::vector<std::pair<std::int64_t, DependencyKind>> kids;
  for (auto it = first; it != last; ++it) kids.push_back(it->second);
  children_.erase(parent);
  for (auto& [child, kind] : kids) {
    auto it = remaining_.find(child);
    if (it == remaining_.end()) continue;  // already doomed or removed
    if (evaluate(kind, state) == DependencyVerdict::NeverSatisfied) {
      remaining_.erase(it);
      v.doomed.push_back(child);
    } else if (--it->second == 0) {
      remaining_.erase(it);
      v.ready.push_back(child);
    }
  }
  return v;
}

DependencyTracker::Verdicts DependencyTracker::parent_started(std::int64_t parent) {
  Verdicts v;
  auto [it, last] = children_.equal_range(parent);
  while (it != last) {
    if (it->second.second != DependencyKind::After) {
      ++it;
      continue;
    }
    const std::int64_t child = it->second.first;
    it = children_.erase(it);
    auto r = remaining_.find(child);
    if (r != remaining_.end() && --r->second == 0) {
      remaining_.erase(r);
      v.ready.push_back(child);
    }
  }
  return v;
}

void DependencyTracker::remove(std::int64_t job) { remaining_.erase(job); }

}  // namespace yard
