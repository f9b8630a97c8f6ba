// Which pending jobs still wait on other jobs. A job becomes ready when every one of its
// dependencies is satisfied, and doomed as soon as one can never be (afterok on a job
// that failed); with `any` (sbatch's '?'), ready when one is satisfied and doomed when
// none can be. Pure bookkeeping: the caller says how parents started and ended.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/dependency.h"
#include "core/job_state.h"

namespace yard {

class DependencyTracker {
 public:
  struct Verdicts {
    std::vector<std::int64_t> ready;   // all dependencies satisfied
    std::vector<std::int64_t> doomed;  // some dependency can never be satisfied
  };

  // Registers `job` with dependencies on parents in the given states (a parent that is
  // not terminal yet is waited for). Returns the immediate verdict for `job`, if any.
  Verdicts add(std::int64_t job, const std::vector<std::pair<Dependency, JobState>>& deps, bool any = false);

  // A parent reached a terminal state: returns the jobs this decides.
  Verdicts parent_ended(std::int64_t parent, JobState state);
  // A parent started: its `after` dependents have what they waited for.
  Verdicts parent_started(std::int64_t parent);

  // Forgets a job (e.g. cancelled while waiting).
  void remove(std::int64_t job);

  bool waiting(std::int64_t job) const { return remaining_.count(job) != 0; }
  std::size_t size() const { return remaining_.size(); }

 private:
  // A child's dependency on a parent was decided: counts it, and says the child's verdict.
  void decided(std::int64_t child, DependencyVerdict verdict, Verdicts& v);

  std::unordered_map<std::int64_t, int> remaining_;  // job -> unresolved dependency count
  std::unordered_set<std::int64_t> any_;              // jobs waiting for any one of them
  std::unordered_multimap<std::int64_t, std::pair<std::int64_t, DependencyKind>> children_;  // parent -> child
};

}  // namespace yard
