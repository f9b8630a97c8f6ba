// submit_many: a flow's jobs in one request (protocol/messages.h), all stored or none.
// Every job is checked first, as its backend would submit it, before any is stored: a
// mistake in the last step of a flow leaves nothing behind. Then each is submitted in
// order, its needs become afterok on the ids of the jobs it needs. A flow's steps found
// done or under way under their key (flow_runs.h) are taken as they are; the steps of one
// foreach that differ only in their command go as one array (step_packing.h).
#include <filesystem>
#include <unordered_set>

#include "backends/series_steps.h"
#include "server/flow_runs.h"
#include "server/step_packing.h"
#include "server/step_series.h"
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

// A job that needs a grouped step waits on a job of the backend "series": its own backend
// must be able to wait on another's.
Status cannot_wait_on_series(DaemonState& d, const SubmitManyRequest& r, const std::vector<std::string>& backends,
                             const std::vector<std::ptrdiff_t>& series_of, const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < r.jobs.size(); ++i) {
    if (series_of[i] >= 0 || backends[i].empty()) continue;
    const Backend* own = d.backends.find(backends[i]);
    if (own && own->waits_on_other_backends()) continue;
    for (auto n : r.jobs[i].needs)
      if (series_of[static_cast<std::size_t>(n)] >= 0)
        return Error{job_label(names, i) + " runs on backend '" + backends[i] + "', which cannot wait on " +
                         job_label(names, static_cast<std::size_t>(n)) + ", a step run in series (group:)",
                     ErrorKind::Invalid};
  }
  return {};
}

// One run of series (step_series.h): each step taken by the backend "series" (its id the
// step's), then their carriers submitted to the steps' backend, waiting on `needs`.
Status submit_series(DaemonState& d, const SubmitManyRequest& r, const SeriesRun& run, const std::vector<Dependency>& needs,
                     SubmitManyReply& reply, std::vector<std::int64_t>& flat, std::vector<std::string>& warnings,
                     double now) {
  SeriesSteps& steps = d.backends.series();
  std::vector<std::vector<std::int64_t>> ids(run.size());
  for (std::size_t e = 0; e < run.size(); ++e)
    for (auto i : run[e]) {
      JobSpec spec = r.jobs[i].spec;
      spec.dependencies.clear();  // its carrier waits for them
      auto id = steps.take(std::move(spec), now);
      if (!id) return id.failure();
      flat.push_back(*id);
      ids[e].push_back(*id);
      reply.ids[i] = {*id};
    }
  const auto& first = r.jobs[run.front().front()];
  const std::string status_dir = series_status_dir(log_directory(first.spec));
  std::error_code ec;
  std::filesystem::create_directories(status_dir, ec);
  if (ec) return Error{"cannot make the directory " + status_dir + ": " + ec.message(), ErrorKind::Internal};
  JobSpec carrier = carrier_spec(r, run, ids, status_dir);
  carrier.dependencies.insert(carrier.dependencies.end(), needs.begin(), needs.end());
  auto carriers = d.backends.submit(std::move(carrier), first.job_class, now, &warnings);
  if (!carriers) return carriers.failure();
  flat.insert(flat.end(), carriers->begin(), carriers->end());
  if (carriers->size() != run.size())
    return Error{"its " + std::to_string(run.size()) + " series became " + std::to_string(carriers->size()) + " jobs",
                 ErrorKind::Internal};
  for (std::size_t e = 0; e < run.size(); ++e)
    if (auto st = steps.carried_by(ids[e], (*carriers)[e], status_dir); !st) return st;
  return {};
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
  // Before that, those with `group: N`: run N at a time in series, each carrier a job
  // of their backend (step_series.h).
  std::vector<SeriesRun> series;
  std::vector<std::ptrdiff_t> series_of(r.jobs.size(), -1);
  std::vector<std::vector<std::size_t>> packs;
  std::vector<std::ptrdiff_t> pack_of(r.jobs.size(), -1);
  if (r.flow) {
    std::vector<bool> to_group(r.jobs.size());
    for (std::size_t i = 0; i < r.jobs.size(); ++i) {
      const Backend* b = submitting(i) && r.jobs[i].group > 1 ? d.backends.find(backends[i]) : nullptr;
      to_group[i] = b && b->waits_on_other_backends();
    }
    series = find_series(r, to_group);
    for (std::size_t s = 0; s < series.size(); ++s)
      for (const auto& one : series[s])
        for (auto i : one) series_of[i] = static_cast<std::ptrdiff_t>(s), backends[i] = SeriesSteps::kName;
    if (auto refused = cannot_wait_on_series(d, r, backends, series_of, names); !refused) return refused.failure();
    std::vector<bool> to_pack(r.jobs.size());
    for (std::size_t i = 0; i < r.jobs.size(); ++i) {
      const Backend* b = submitting(i) && !r.jobs[i].pack.empty() && series_of[i] < 0 ? d.backends.find(backends[i]) : nullptr;
      to_pack[i] = b && b->packs_steps();
    }
    packs = find_packs(r, to_pack);
    for (std::size_t p = 0; p < packs.size(); ++p)
      for (auto i : packs[p]) pack_of[i] = static_cast<std::ptrdiff_t>(p);
  }
  SubmitManyReply reply;
  reply.ids = std::move(plan.ids);
  std::vector<std::int64_t> flat;
  // A job's needs, as afterok on the ids of those not already done.
  auto dependencies_of = [&](const SubmitManyRequest::Job& job) {
    std::vector<Dependency> out;
    for (auto n : job.needs)
      if (plan.origins[static_cast<std::size_t>(n)] != StepOrigin::UpToDate)
        for (auto id : reply.ids[static_cast<std::size_t>(n)]) out.push_back({DependencyKind::AfterOk, id});
    return out;
  };
  for (std::size_t i = 0; i < r.jobs.size(); ++i) {
    if (!submitting(i)) continue;
    if (series_of[i] >= 0) {
      const SeriesRun& run = series[static_cast<std::size_t>(series_of[i])];
      if (run.front().front() != i) continue;  // submitted with its run's first step
      std::vector<std::string> warnings;
      if (auto st = submit_series(d, r, run, dependencies_of(r.jobs[i]), reply, flat, warnings, now); !st) {
        (void)d.backends.cancel(d.store, flat, now);
        return Error{job_label(names, i) + ": " + st.error(), st.kind()};
      }
      for (auto& w : warnings) reply.warnings.push_back(job_label(names, i) + ": " + w);
      continue;
    }
    const std::vector<std::size_t>* pack = pack_of[i] < 0 ? nullptr : &packs[static_cast<std::size_t>(pack_of[i])];
    if (pack && pack->front() != i) continue;  // submitted with the pack's first
    auto& job = r.jobs[i];
    if (pack) job.spec = packed_spec(r, *pack);  // its members' needs are the first's
    const auto needed = dependencies_of(job);
    job.spec.dependencies.insert(job.spec.dependencies.end(), needed.begin(), needed.end());
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
