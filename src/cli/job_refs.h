// Job ids as users type them to status, wait, cancel and logs: "12" (a job, or a whole
// array named by its first element's id) or "12_3" (element 3 of array 12), the
// ID_INDEX form that yard status prints, as squeue and scancel take it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/job_record.h"

namespace yard {

struct JobRef {
  std::int64_t id = 0;
  std::optional<std::int64_t> index;  // set for ID_INDEX
  std::string text;                   // as typed, for messages
};

// Errors name the word and the accepted forms.
Result<JobRef> parse_job_ref(std::string_view text);
Result<std::vector<JobRef>> parse_job_refs(const std::vector<std::string>& words);

bool matches(const JobRef& ref, const JobRecord& job);

// The records that `refs` name among `candidates` (each once, in id order), and the refs
// that named none.
struct ResolvedJobs {
  std::vector<JobRecord> jobs;
  std::vector<JobRef> unknown;
};
ResolvedJobs resolve_job_refs(const std::vector<JobRef>& refs, const std::vector<JobRecord>& candidates);

// The ids to look up in the store for `refs` (Store::jobs also returns an array's
// elements when given its id).
std::vector<std::int64_t> store_ids(const std::vector<JobRef>& refs);

}  // namespace yard
