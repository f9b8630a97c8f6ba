// submit_many: a flow's jobs in one request (protocol/messages.h), all stored or none.
// Every job is checked first, as its backend would submit it, before any is stored: a
// mistake in the last step of a flow leaves nothing behind. Then each is submitted in
// order, its needs become afterok on the ids of the jobs it needs. A flow's steps found
// done or under way under their key (flow_runs.h) are taken as they are; the steps of one
// foreach that differ only in their command go as one array (step_packing.h).
#include <unordered_set>

#include "server/flow_runs.h"
#include "server/step_packing.h"
#include "server/requests.h"

namespace yard {
namespace {

std::string job_label(const std::vector<std::string>& names, std::size_t i) {
  return "job " + std::to_string(i) + " (" + names[i] + ")";
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
    if (r.flow) {
      auto earlier = replayed_flow(d.store, r.key);
      if (!earlier) return earlier.failure();
      if (*earlier) return std::move(**earlier);
    } else {
      auto earlier = d.store.submission(r.key);
      if (!earlier) return earlier.failure();
      if (*earlier) return replayed(r, **earlier);
    }
  }
  if (d.draining) return Error{"the daemon is shutting down", ErrorKind::Unavailable};
  // A flow's steps already done or under way under the same key are taken, not submitted.
  FlowPlan plan;
  if (r.flow) {
    auto planned = plan_flow(d.store, r);
    if (!planned) return planned.failure();
    plan = std::move(*planned);
  } else {
    plan.origins.assign(r.jobs.size(), StepOrigin::Submitted);
    plan.ids.resize(r.jobs.size());
  }
  auto submitting = [&](std::size_t i) { return plan.origins[i] == StepOrigin::Submitted; };
  // The jobs' names, for messages and the flow's record (their specs go to their backends).
  std::vector<std::string> names;
  names.reserve(r.jobs.size());
  for (const auto& job : r.jobs) names.push_back(job.spec.name);
  for (std::size_t i = 0; i < r.jobs.size(); ++i)  // the flow's environment, to the jobs submitted
    if (submitting(i) && !r.jobs[i].own_env) r.jobs[i].spec.env = r.env;
  // Each job as its backend would take it (its needs left out: they are jobs not yet
  // stored). A job needing one of another backend is refused here unless its backend can
  // wait on other backends' jobs (Backend::waits_on_other_backends: the local and the
  // cluster backends can). A need already completed is no longer waited for.
  std::vector<std::string> backends(r.jobs.size());
  for (std::size_t i = 0; i < r.jobs.size(); ++i) {
    if (!submitting(i)) continue;
    auto checked = d.backends.check(r.jobs[i].spec, r.jobs[i].job_class, now);
    if (!checked) return Error{job_label(names, i) + ": " + checked.error(), checked.kind()};
    backends[i] = checked->backend;
    for (auto n : r.jobs[i].needs) {
      const auto need = static_cast<std::size_t>(n);
      if (plan.origins[need] == StepOrigin::UpToDate) continue;
      if (plan.origins[need] == StepOrigin::Attached) {
        auto parent = d.store.job(plan.ids[need].front());
        if (!parent) return parent.failure();
        if (*parent) backends[need] = (*parent)->backend;
      }
      const Backend* own = d.backends.find(backends[i]);
      if (backends[need] != backends[i] && !(own && own->waits_on_other_backends()))
        return Error{job_label(names, i) + " runs on backend '" + backends[i] + "' and needs " + job_label(names, need) +
                         " of backend '" + backends[need] + "', which backend '" + backends[i] +
                         "' cannot wait on",
                     ErrorKind::Invalid};
    }
  }
  // A flow's steps of one foreach that differ only in their command, bound for a backend
  // where each submission costs: one array each (step_packing.h).
  std::vector<std::vector<std::size_t>> packs;
  std::vector<std::ptrdiff_t> pack_of(r.jobs.size(), -1);
  if (r.flow) {
    std::vector<bool> to_pack(r.jobs.size());
    for (std::size_t i = 0; i < r.jobs.size(); ++i) {
      const Backend* b = submitting(i) && !r.jobs[i].pack.empty() ? d.backends.find(backends[i]) : nullptr;
      to_pack[i] = b && b->packs_steps();
    }
    packs = find_packs(r, to_pack);
    for (std::size_t p = 0; p < packs.size(); ++p)
      for (auto i : packs[p]) pack_of[i] = static_cast<std::ptrdiff_t>(p);
  }
  SubmitManyReply reply;
  reply.ids = std::move(plan.ids);
  std::vector<std::int64_t> flat;
  for (std::size_t i = 0; i < r.jobs.size(); ++i) {
    if (!submitting(i)) continue;
    const std::vector<std::size_t>* pack = pack_of[i] < 0 ? nullptr : &packs[static_cast<std::size_t>(pack_of[i])];
    if (pack && pack->front() != i) continue;  // submitted with the pack's first
    auto& job = r.jobs[i];
    if (pack) job.spec = packed_spec(r, *pack);  // its members' needs are the first's
    for (auto n : job.needs)
      if (plan.origins[static_cast<std::size_t>(n)] != StepOrigin::UpToDate)
        for (auto id : reply.ids[static_cast<std::size_t>(n)]) job.spec.dependencies.push_back({DependencyKind::AfterOk, id});
    std::vector<std::string> warnings;
    auto ids = d.backends.submit(std::move(job.spec), job.job_class, now, &warnings);
    if (!ids) {
      // Checked above, so only the store can fail here: what this request stored is
      // cancelled, never left to run as half a flow.
      (void)d.backends.cancel(d.store, flat, now);
      return Error{job_label(names, i) + ": " + ids.error(), ids.kind()};
    }
    for (auto& w : warnings) reply.warnings.push_back(job_label(names, i) + ": " + w);
    flat.insert(flat.end(), ids->begin(), ids->end());
    if (!pack) {
      reply.ids[i] = std::move(*ids);
      continue;
    }
    if (ids->size() != pack->size()) {
      (void)d.backends.cancel(d.store, flat, now);
      return Error{job_label(names, i) + ": its pack of " + std::to_string(pack->size()) + " steps became " +
                       std::to_string(ids->size()) + " jobs",
                   ErrorKind::Internal};
    }
    for (std::size_t k = 0; k < pack->size(); ++k) reply.ids[(*pack)[k]] = {(*ids)[k]};
  }
  if (r.flow) {
    reply.origins = std::move(plan.origins);
    auto flow_id = record_flow(d.store, r, names, reply, now);
    if (!flow_id) {
      (void)d.backends.cancel(d.store, flat, now);
      return flow_id.failure();
    }
    reply.flow_id = *flow_id;
  } else if (!r.key.empty()) {
    if (auto s = d.store.record_submission(r.key, flat, now); !s) return s.failure();
  }
  return reply;
}

}  // namespace yard
