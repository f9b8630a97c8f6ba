#include "cli/job_refs.h"

#include <algorithm>
#include <charconv>

namespace yard {
namespace {

bool to_id(std::string_view s, std::int64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size() && out >= 0;
}

}  // namespace

Result<JobRef> parse_job_ref(std::string_view text) {
  JobRef r;
  r.text = std::string(text);
  const auto underscore = text.find('_');
  std::int64_t index = 0;
  const bool ok = underscore == std::string_view::npos
                      ? to_id(text, r.id)
                      : to_id(text.substr(0, underscore), r.id) && to_id(text.substr(underscore + 1), index);
  if (!ok || r.id == 0)
    return err("invalid job id '" + r.text + "' (accepted: ID, or ID_INDEX for an array element, e.g. 12 or 12_3)");
  if (underscore != std::string_view::npos) r.index = index;
  return r;
}

Result<std::vector<JobRef>> parse_job_refs(const std::vector<std::string>& words) {
  std::vector<JobRef> refs;
  for (auto& w : words) {
    auto r = parse_job_ref(w);
    if (!r) return r.failure();
    refs.push_back(std::move(*r));
  }
  return refs;
}

bool matches(const JobRef& ref, const JobRecord& job) {
  if (ref.index) return job.array_job_id == ref.id && job.array_index == ref.index;
  return job.id == ref.id || job.array_job_id == ref.id;
}

ResolvedJobs resolve_job_refs(const std::vector<JobRef>& refs, const std::vector<JobRecord>& candidates) {
  ResolvedJobs out;
  for (auto& ref : refs)
    if (std::none_of(candidates.begin(), candidates.end(), [&](const JobRecord& j) { return matches(ref, j); }))
      out.unknown.push_back(ref);
  for (auto& j : candidates)
    if (std::any_of(refs.begin(), refs.end(), [&](const JobRef& r) { return matches(r, j); })) out.jobs.push_back(j);
  std::sort(out.jobs.begin(), out.jobs.end(), [](const JobRecord& a, const JobRecord& b) { return a.id < b.id; });
  return out;
}

std::vector<std::int64_t> store_ids(const std::vector<JobRef>& refs) {
  std::vector<std::int64_t> ids;
  for (auto& r : refs) ids.push_back(r.id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace yard
