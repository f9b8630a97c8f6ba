// Job dependencies in Slurm's --dependency syntax: "afterok:12:13,afterany:14".
// All listed conditions must hold (Slurm's ',' = AND). `after` waits for the parent to
// start (or to end without starting); `singleton` for every earlier job of the same name
// to end: the daemon turns it into afterany on those jobs when the job is submitted
// (resolve_singleton), so only a spec not submitted yet carries it (job id 0).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/job_state.h"
#include "core/result.h"

namespace yard {

// AfterCorr: each element of an array after the element of the same index of another
// array has succeeded (a backend resolves it element by element; judged whole, afterok).
enum class DependencyKind { AfterOk, AfterAny, AfterNotOk, After, Singleton, AfterCorr };

struct Dependency {
  DependencyKind kind;
  std::int64_t job_id;
  bool operator==(const Dependency&) const = default;
};

// With `any`, "afterok:1?afterany:2" (Slurm's '?': any one of them suffices) is taken
// and *any says which separator the list used; without, '?' is an error. A list uses one
// separator, as in sbatch.
Result<std::vector<Dependency>> parse_dependencies(std::string_view text, bool* any = nullptr);
std::string_view to_string(DependencyKind k);
Result<DependencyKind> parse_dependency_kind(std::string_view text);

// What a dependency says once its parent is in `parent_state`.
enum class DependencyVerdict { Waiting, Satisfied, NeverSatisfied };
DependencyVerdict evaluate(DependencyKind kind, JobState parent_state);

}  // namespace yard
