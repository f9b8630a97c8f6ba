#include "local/dependency_tracker.h"

namespace yard {

DependencyTracker::Verdicts DependencyTracker::add(std::int64_t job,
                                                   const std::vector<std::pair<Dependency, JobState>>& deps, bool any) {
  Verdicts v;
  int unresolved = 0, satisfied = 0;
  for (auto& [dep, parent_state] : deps) {
    switch (evaluate(dep.kind, parent_state)) {
      case DependencyVerdict::Satisfied: ++satisfied; break;
      case DependencyVerdict::NeverSatisfied:
        if (!any) {
          v.doomed.push_back(job);
          return v;
        }
        break;
      case DependencyVerdict::Waiting: ++unresolved; break;
    }
  }
  if (deps.empty() || (any ? satisfied > 0 : unresolved == 0)) {
    v.ready.push_back(job);
    return v;
  }
  if (unresolved == 0) {  // any, and none can be met
    v.doomed.push_back(job);
    return v;
  }
  remaining_[job] = unresolved;
  if (any) any_.insert(job);
  for (auto& [dep, parent_state] : deps)
    if (evaluate(dep.kind, parent_state) == DependencyVerdict::Waiting)
      children_.emplace(dep.job_id, std::make_pair(job, dep.kind));
  return v;
}

void DependencyTracker::decided(std::int64_t child, DependencyVerdict verdict, Verdicts& v) {
  auto it = remaining_.find(child);
  if (it == remaining_.end()) return;  // already decided or removed
  const bool any = any_.count(child) != 0;
  bool ready = false, doomed = false;
  if (verdict == DependencyVerdict::Satisfied) {
    ready = any || --it->second == 0;
  } else {  // never satisfied
    doomed = !any || --it->second == 0;
  }
  if (ready || doomed) {
    remaining_.erase(it);
    any_.erase(child);
    (ready ? v.ready : v.doomed).push_back(child);
  }
}

DependencyTracker::Verdicts DependencyTracker::parent_ended(std::int64_t parent, JobState state) {
  Verdicts v;
  auto [first, last] = children_.equal_range(parent);
  std::vector<std::pair<std::int64_t, DependencyKind>> kids;
  for (auto it = first; it != last; ++it) kids.push_back(it->second);
  children_.erase(parent);
  for (auto& [child, kind] : kids) decided(child, evaluate(kind, state), v);
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
    decided(child, DependencyVerdict::Satisfied, v);
  }
  return v;
}

void DependencyTracker::remove(std::int64_t job) {
  remaining_.erase(job);
  any_.erase(job);
}

}  // namespace yard
