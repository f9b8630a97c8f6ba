// LocalBackend, part: dependencies. Which pending jobs wait on which, what a parent's
// start or end decides, and aftercorr resolved element by element.
#include "local/local_backend.h"

namespace yard {

LocalBackend::ParentStates LocalBackend::for_element(const ParentStates& whole, std::optional<std::int64_t> index,
                                                     ParentElements& elements) {
  ParentStates out;
  out.reserve(whole.size());
  for (const auto& [d, state] : whole) {
    if (d.kind != DependencyKind::AfterCorr) {
      out.push_back({d, state});
      continue;
    }
    auto known = elements.find(d.job_id);
    if (known == elements.end()) {
      // The parent's elements by index, read once for the array (a job that is no
      // array stands for all of its index).
      std::unordered_map<std::int64_t, std::pair<std::int64_t, JobState>> by_index;
      auto records = store_.jobs({d.job_id});
      if (records)
        for (const JobRecord& r : *records) by_index[r.array_index.value_or(-1)] = {r.id, r.state};
      known = elements.emplace(d.job_id, std::move(by_index)).first;
    }
    const auto& by_index = known->second;
    auto it = index ? by_index.find(*index) : by_index.end();
    if (it == by_index.end()) it = by_index.find(-1);
    // No element of that index: nothing to wait for, as Slurm.
    if (it != by_index.end()) out.push_back({Dependency{DependencyKind::AfterOk, it->second.first}, it->second.second});
  }
  return out;
}

void LocalBackend::add_dependencies(std::int64_t id, const std::vector<std::pair<Dependency, JobState>>& parents,
                                    bool any) {
  // A parent that is not this backend's (another backend's job, a cluster's) ends without
  // telling it: tick() looks at such parents in the store (resolve_foreign_parents). One
  // of its own (pending or running here) tells it by ending, and is not looked at (a
  // flow's fan-in has thousands).
  for (const auto& [d, state] : parents)
    if (!is_terminal(state) && !pending_.count(d.job_id) && !running_.count(d.job_id)) watched_parents_.insert(d.job_id);
  auto v = deps_.add(id, parents, any);
  for (auto r : v.ready)
    if (!retry_at_.count(r)) queue_.push(pending_[r]);  // else queued when its backoff ends
  for (auto d : v.doomed) {
    cancel_doomed(d);
    resolve_dependents(d, JobState::Cancelled);
  }
}

void LocalBackend::cancel_doomed(std::int64_t id) {
  Transition t;
  t.reason = "DependencyNeverSatisfied";
  t.end_time = clock_.wall();
  set_state(id, JobState::Cancelled, t);
  const std::int64_t spec_id = pending_[id].spec_id;
  pending_.erase(id);
  mail_about(id, spec_id, JobState::Cancelled, 0);
}

void LocalBackend::resolve_dependents(std::int64_t id, JobState state) {
  std::vector<std::pair<std::int64_t, JobState>> work{{id, state}};
  while (!work.empty()) {
    auto [parent, st] = work.back();
    work.pop_back();
    auto v = deps_.parent_ended(parent, st);
    for (auto r : v.ready)
      if (auto it = pending_.find(r); it != pending_.end()) queue_.push(it->second);
    for (auto d : v.doomed) {
      cancel_doomed(d);
      work.push_back({d, JobState::Cancelled});
    }
  }
}

void LocalBackend::resolve_foreign_parents() {
  for (auto it = watched_parents_.begin(); it != watched_parents_.end();) {
    const std::int64_t parent = *it;
    if (pending_.count(parent) || running_.count(parent)) {  // ours: its end tells its dependents
      ++it;
      continue;
    }
    auto rec = store_.job(parent);
    if (!rec || !*rec) {
      it = watched_parents_.erase(it);
      continue;
    }
    if (!is_terminal((**rec).state)) {
      ++it;
      continue;
    }
    it = watched_parents_.erase(it);
    resolve_dependents(parent, (**rec).state);
  }
}

}  // namespace yard
