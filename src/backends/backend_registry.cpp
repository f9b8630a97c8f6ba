#include "backends/backend_registry.h"

#include "backends/series_steps.h"

#include <iostream>
#include <map>
#include <set>

#include "routes/routes.h"
#include "store/store.h"

namespace yard {

void BackendRegistry::add(std::string name, BackendFactory factory) {
  entries_.push_back({std::move(name), std::move(factory)});
}

Result<Backends> Backends::open(const BackendRegistry& registry, const BackendContext& context) {
  Backends b;
  for (const auto& e : registry.entries()) {
    auto opened = e.open(context);
    if (!opened) return Error{opened.failure()};
    if (*opened) b.all_.push_back(std::move(*opened));
  }
  std::set<std::string> names;
  for (const auto& backend : b.all_) names.insert(backend->name());
  std::map<std::string, Backend*> by_name;  // the backends themselves stay where they are when `b` moves
  for (const auto& backend : b.all_) by_name[backend->name()] = backend.get();
  b.routes_ = std::make_unique<RoutesFile>(
      routes_files(context.config_dir), [names](const std::string& n) { return names.count(n) > 0; },
      [](const std::string& line) { std::cerr << "yard daemon: " << line << std::endl; },
      [by_name](const std::string& backend) -> const QueueListing* {
        auto it = by_name.find(backend);
        return it == by_name.end() ? nullptr : it->second->queue_listing();
      },
      [by_name](const Routes& routes) {  // each backend reads the limits of the queues named for it
        for (const auto& [name, backend] : by_name) {
          std::set<std::string> queues;
          if (auto t = routes.targets.find(name); t != routes.targets.end())
            for (const auto& [cls, queue] : t->second.queues) queues.insert(queue);
          backend->want_queue_limits(queues);
        }
      });
  b.routes_->current();  // read now: a bad file is said at the daemon's start
  // A flow's grouped steps (backends/series_steps.h), beside every build's backends; not
  // a target for routes.yaml, which names those above.
  auto series = std::make_unique<SeriesSteps>(context.store);
  b.series_ = series.get();
  b.all_.push_back(std::move(series));
  return b;
}

Backend* Backends::find(const std::string& name) const {
  const std::string& wanted = name.empty() ? std::string(kDefaultBackend) : name;
  for (const auto& b : all_)
    if (b->name() == wanted) return b.get();
  return nullptr;
}

std::string Backends::names() const {
  std::string out;
  for (const auto& b : all_)
    if (b.get() != series_) out += (out.empty() ? "" : ", ") + b->name();  // not one a job names
  return out;
}

namespace {

// What `backend` will not do for the job: the options it does not honour, then its own.
std::vector<std::string> warnings_of(const Backend& backend, const JobSpec& spec) {
  auto out = unhonoured_option_warnings(spec, backend.name(), [&](std::string_view o) { return backend.honours(o); });
  for (auto& w : backend.warnings(spec)) out.push_back(std::move(w));
  return out;
}

}  // namespace

// The backend a submission goes to, its class resolved into `spec`.
Result<Backend*> Backends::route(JobSpec& spec, const std::string& job_class, std::string* why) const {
  const Routes* routes = routes_ ? &routes_->current() : nullptr;
  const bool size_class = routes && is_size_class(*routes, job_class);
  if (!job_class.empty() && !size_class) {
    // A class names the backend (and defaults): resolved before anything is stored.
    // Every backend's settings file may define classes; the first definition of a name
    // wins (slurm.yaml's before those of backends later in the registry's order).
    JobClasses classes;
    for (const auto& b : all_)
      if (const JobClasses* own = b->job_classes())
        for (const auto& [name, c] : *own) classes.emplace(name, c);
    if (auto s = apply_job_class(spec, job_class, classes); !s) return Error{s.failure()};
  }
  if (routes && !routes->empty()) {
    auto r = route_job(*routes, spec, size_class ? job_class : "", [this](const std::string& name) {
      const Backend* b = find(name);
      return b ? b->down() : std::string();
    });
    if (!r) return err("routes.yaml: " + r.error());
    if (why) *why = r->why;
  }
  Backend* target = find(spec.backend);
  if (!target && !job_class.empty())
    return err("class '" + job_class + "' runs on backend '" + spec.backend + "', which this daemon does not have (known: " +
               names() + ")");
  if (!target) return err("unknown backend '" + spec.backend + "' (known: " + names() + ")");
  // What would change the job's result, asked of a backend that does not honour it.
  if (auto s = refuse_unhonoured_options(spec, target->name(), [&](std::string_view o) { return target->honours(o); });
      !s)
    return Error{s.failure()};
  if (spec.het_group >= 0 && !target->has_components())
    return err("--het-group chooses the component of a Slurm allocation a slurm-steps job runs in; this job goes to "
               "backend " + target->name());
  return target;
}

Result<std::vector<std::int64_t>> Backends::submit(JobSpec spec, const std::string& job_class, double now,
                                                   std::vector<std::string>* warnings, std::string* route_taken) const {
  auto target = route(spec, job_class, route_taken);
  if (!target) return Error{target.failure()};
  if (warnings) *warnings = warnings_of(**target, spec);
  return (*target)->submit(std::move(spec), now);
}

nlohmann::json Backends::routes_json(Store& store) const {
  nlohmann::json j = routes_ ? yard::routes_json(routes_->current()) : nlohmann::json::object();
  j["files"] = routes_ ? routes_->files() : std::vector<std::string>{};
  j["problem"] = routes_ ? routes_->problem() : "";
  std::vector<ActiveCount> counts;
  if (auto c = store.active_counts()) counts = std::move(*c);  // unreadable: shown as none, the health still
  j["backends"] = nlohmann::json::array();
  for (const auto& b : all_) {
    ActiveCount n{b->name(), 0, 0, 0};
    for (auto& c : counts)
      if (c.backend == b->name()) n = c;
    j["backends"].push_back({{"backend", b->name()}, {"down", b->down()}, {"pending", n.pending},
                             {"running", n.running}, {"unknown", n.unknown}, {"max_array_size", b->max_array_size()}});
    if (const QueueListing* l = b->queue_listing())
      j["backends"].back()["queue_listing"] = queue_listing_json(*l);
  }
  return j;
}

Result<JobSpec> Backends::check(JobSpec spec, const std::string& job_class, double now,
                                std::vector<std::string>* warnings, std::string* route_taken) const {
  auto target = route(spec, job_class, route_taken);
  if (!target) return Error{target.failure()};
  spec.backend = (*target)->name();
  if (auto s = (*target)->check(spec, now); !s) return s.failure();
  if (warnings) *warnings = warnings_of(**target, spec);
  return spec;
}

namespace {

// The records of `ids` (an array's elements by its id), or which id is no job.
Result<std::vector<JobRecord>> named_jobs(Store& store, const std::vector<std::int64_t>& ids) {
  auto jobs = store.jobs(ids);
  if (!jobs) return Error{jobs.failure()};
  for (auto id : ids) {
    bool found = false;
    for (auto& j : *jobs) found = found || j.id == id || j.array_job_id == id;
    if (!found) return Error{"no job " + std::to_string(id), ErrorKind::NotFound};
  }
  return jobs;
}

}  // namespace

Result<std::vector<std::int64_t>> Backends::cancel(Store& store, const std::vector<std::int64_t>& ids, double now) const {
  if (auto jobs = named_jobs(store, ids); !jobs) return jobs.failure();
  std::vector<std::int64_t> acted;
  for (const auto& b : all_) {
    auto mine = b->cancel(ids, now);
    if (!mine) return mine;
    acted.insert(acted.end(), mine->begin(), mine->end());
  }
  // Steps that ran inside their carrier (or were all of its steps left) stop it.
  if (const auto carriers = series_ ? series_->take_carriers_to_cancel() : std::vector<std::int64_t>{}; !carriers.empty())
    for (const auto& b : all_)
      if (auto stopped = b->cancel(carriers, now); !stopped) return stopped;
  return acted;
}

Result<std::vector<std::int64_t>> Backends::act(Store& store, JobAction action, const std::vector<std::int64_t>& ids,
                                                double now) const {
  auto jobs = named_jobs(store, ids);
  if (!jobs) return jobs.failure();
  std::vector<std::int64_t> acted;
  for (const auto& b : all_) {
    auto mine = b->act(action, ids, *jobs, now);
    if (!mine) return mine;
    acted.insert(acted.end(), mine->begin(), mine->end());
  }
  return acted;
}

nlohmann::json Backends::describe() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& b : all_) out.update(b->describe());
  return out;
}

std::size_t Backends::running() const {
  std::size_t n = 0;
  for (const auto& b : all_) n += b->running();
  return n;
}

}  // namespace yard
