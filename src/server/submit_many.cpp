// submit_many: a flow's jobs in one request (protocol/messages.h), all stored or none.
// Every job is checked first, as its backend would submit it, before any is stored: a
// mistake in the last step of a flow leaves nothing behind. Then each is submitted in
// order, its needs become afterok on the ids of the jobs it needs.
#include <unordered_set>

#include "server/requests.h"

namespace yard {
namespace {

std::string job_label(const SubmitManyRequest& r, std::size_t i) {
  return "job " + std::to_string(i) + " (" + r.jobs[i].spec.name + ")";
}

// The ids of a replayed request (its key known): the flat list the first try recorded,
// split by each job's number of ids (an array's elements), the same for the same request.
Result<SubmitManyReply> replayed(const SubmitManyRequest& r, const std::vector<std::int64_t>& flat) {
  SubmitManyReply reply;
  std::size_t at = 0;
  for (const auto& job : r.jobs) {
    const std::size_t n = job.spec.array ? job.spec.array->indices.size() : 1;
    if (at + n > flat.size()) return Error{"this request's key was used by another request", ErrorKind::Conflict};
    reply.ids.emplace_back(flat.begin() + static_cast<std::ptrdiff_t>(at), flat.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
  }
  if (at != flat.size()) return Error{"this request's key was used by another request", ErrorKind::Conflict};
  return reply;
}

}  // namespace

Result<SubmitManyReply> handle(DaemonState& d, SubmitManyRequest r, double now) {
  if (!r.key.empty()) {
    auto earlier = d.store.submission(r.key);
    if (!earlier) return earlier.failure();
    if (*earlier) return replayed(r, **earlier);
  }
  if (d.draining) return Error{"the daemon is shutting down", ErrorKind::Unavailable};
  for (auto& job : r.jobs)
    if (!job.own_env) job.spec.env = r.env;
  // Each job as its backend would take it (its needs left out: they are jobs not yet
  // stored). A job needing one of another backend is refused here: a backend holds a
  // job only on its own jobs (yet).
  std::vector<std::string> backends(r.jobs.size());
  for (std::size_t i = 0; i < r.jobs.size(); ++i) {
    auto checked = d.backends.check(r.jobs[i].spec, r.jobs[i].job_class, now);
    if (!checked) return Error{job_label(r, i) + ": " + checked.error(), checked.kind()};
    backends[i] = checked->backend;
    for (auto n : r.jobs[i].needs)
      if (backends[static_cast<std::size_t>(n)] != backends[i])
        return Error{job_label(r, i) + " runs on backend '" + backends[i] + "' and needs " +
                         job_label(r, static_cast<std::size_t>(n)) + " of backend '" +
                         backends[static_cast<std::size_t>(n)] + "': needs across backends are not supported yet",
                     ErrorKind::Invalid};
  }
  SubmitManyReply reply;
  reply.ids.reserve(r.jobs.size());
  std::vector<std::int64_t> flat;
  for (std::size_t i = 0; i < r.jobs.size(); ++i) {
    auto& job = r.jobs[i];
    for (auto n : job.needs)
      for (auto id : reply.ids[static_cast<std::size_t>(n)]) job.spec.dependencies.push_back({DependencyKind::AfterOk, id});
    std::vector<std::string> warnings;
    auto ids = d.backends.submit(std::move(job.spec), job.job_class, now, &warnings);
    if (!ids) {
      // Checked above, so only the store can fail here: what this request stored is
      // cancelled, never left to run as half a flow.
      (void)d.backends.cancel(d.store, flat, now);
      return Error{job_label(r, i) + ": " + ids.error(), ids.kind()};
    }
    for (auto& w : warnings) reply.warnings.push_back(job_label(r, i) + ": " + w);
    flat.insert(flat.end(), ids->begin(), ids->end());
    reply.ids.push_back(std::move(*ids));
  }
  if (!r.key.empty())
    if (auto s = d.store.record_submission(r.key, flat, now); !s) return s.failure();
  return reply;
}

}  // namespace yard
