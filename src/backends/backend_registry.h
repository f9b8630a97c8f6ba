// Where backends register, and the backends a daemon has opened.
//
// Each backend's folder has one registration function (`register_local_backend`,
// `register_slurm_backends`, ...) that adds a factory per backend name; the list of them
// is backends/all_backends.cpp, one line per scheduler. A test registers backends of its
// own and gives that registry to the daemon (server/daemon.h).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "routes/routes_file.h"

namespace yard {

class SeriesSteps;

using BackendFactory = std::function<Result<std::unique_ptr<Backend>>(const BackendContext&)>;

class BackendRegistry {
 public:
  // Backends are opened, stepped and listed in the order they were added.
  void add(std::string name, BackendFactory factory);
  struct Entry {
    std::string name;
    BackendFactory open;
  };
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

// Every backend this build has (backends/all_backends.cpp).
BackendRegistry all_backends();

// The backends a daemon opened from a registry, and the routing of requests to them.
class Backends {
 public:
  static Result<Backends> open(const BackendRegistry& registry, const BackendContext& context);

  const std::vector<std::unique_ptr<Backend>>& all() const { return all_; }
  // The backend of a flow's grouped steps (backends/series_steps.h), always there.
  SeriesSteps& series() const { return *series_; }
  // The backend named `name` ("" is kDefaultBackend), or null.
  Backend* find(const std::string& name) const;
  // "local, slurm, slurm-steps": for messages.
  std::string names() const;

  // `spec` (in `job_class`, if not empty) to the backend its routes (routes.yaml) or it
  // names.
  // With `warnings`, what the chosen backend will not do for the job (Backend::warnings).
  // With `route_taken`, how routes.yaml routed it ("" when it did not).
  Result<std::vector<std::int64_t>> submit(JobSpec spec, const std::string& job_class, double now,
                                           std::vector<std::string>* warnings = nullptr,
                                           std::string* route_taken = nullptr) const;
  // What submit() would do, storing nothing: the spec as it would be submitted (class
  // defaults applied, backend named), or why it would be refused.
  Result<JobSpec> check(JobSpec spec, const std::string& job_class, double now,
                        std::vector<std::string>* warnings = nullptr, std::string* route_taken = nullptr) const;
  // Checks that every id is a job (array ids included), then has every backend cancel
  // its own; the ids acted on.
  Result<std::vector<std::int64_t>> cancel(Store& store, const std::vector<std::int64_t>& ids, double now) const;
  // The same for a hold, release or requeue (Backend::act).
  Result<std::vector<std::int64_t>> act(Store& store, JobAction action, const std::vector<std::int64_t>& ids,
                                        double now) const;
  // The routes in force (routes_json) with the files, why the last reading was refused
  // ("problem"), and each backend's health and jobs in `store` ("backends": [{"backend",
  // "down" (why, "" when up), "pending", "running", "unknown"}]).
  nlohmann::json routes_json(Store& store) const;
  // `yard routes move FROM TO` (backend_moves.cpp): FROM's pending jobs go to TO, keeping
  // their ids, events and dependencies: each one given up by FROM (Backend::release), its
  // record moved (on TO's queue for its class, with TO's account and QOS where it had
  // FROM's), taken by TO. Those in FROM's scheduler's queue move once it took them out
  // (complete_moves). Every active job of FROM, with why it stays ("" when it moved or
  // leaves; with `dry_run`, would).
  struct JobMove {
    std::int64_t id = 0;
    std::string why_not;
    bool leaving = false;  // moves once its scheduler took it out of its queue
  };
  Result<std::vector<JobMove>> move(Store& store, const std::string& from, const std::string& to, bool dry_run,
                                    double now) const;
  // The jobs that left their scheduler's queue since the last call go where they were
  // moving (their record's moving_to): once per loop iteration, in its transaction.
  void complete_moves(Store& store, double now) const;
  // Every backend's describe(), merged.
  nlohmann::json describe() const;
  std::size_t running() const;

 private:
  // `why` gets the route taken, when routes.yaml chose it.
  Result<Backend*> route(JobSpec& spec, const std::string& job_class, std::string* why = nullptr) const;

  std::vector<std::unique_ptr<Backend>> all_;
  SeriesSteps* series_ = nullptr;  // one of all_
  // routes.yaml (routes/routes_file.h), read again when it changes: a wish to a backend,
  // size classes to queues. Looked at on each submission, hence mutable.
  std::unique_ptr<RoutesFile> routes_;
};

}  // namespace yard
