// The one interface every backend implements, and what the daemon knows of backends.
//
// A backend runs the jobs submitted with its name (`--backend NAME`, or a class naming
// it): the local machine's scheduler, a batch scheduler's indirect engine, steps in an
// allocation. The daemon's loop drives every backend the same way, single-threaded, in
// one store transaction per iteration:
//
//   ready(fds) for those of watched_fds() that poll() found readable;
//   submit() / cancel() for the clients' requests;
//   step(now): time-driven work, and choosing what to start (marked in the store);
//   -- commit --
//   after_commit(): act on what was committed (start jobs, send commands).
//
// A backend keeps its state in the store before acting on it, so after a crash of the
// daemon recover() rebuilds it from the store. Backends register themselves with a
// BackendRegistry (backend_registry.h), each from its own folder; nothing outside
// src/backends/ chooses a backend by its name.
#pragma once

#include <poll.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/job_classes.h"
#include "core/clock.h"
#include "core/job_action.h"
#include "core/job_record.h"
#include "core/job_spec.h"
#include "core/queue_limits.h"
#include "core/result.h"

namespace yard {

class Store;
struct Machine;

// What a backend is opened with: the daemon's store, directories and machine.
struct BackendContext {
  Store& store;
  std::string state_dir;   // run records, saved scripts
  std::string config_dir;  // the backends' YAML files (local.yaml, slurm.yaml, ...)
  std::string policy_path; // the local scheduler's policy.yaml
  std::string user;
  const Machine& machine;  // the machine the daemon runs on
  const Clock& clock = system_clock();  // every time a backend records or plans with
};

// What became of a job asked to move to another backend (Backend::release).
struct Release {
  enum Outcome { Given, Leaving, Stays };
  Outcome outcome = Stays;
  std::string why;  // Stays: why
};

class Backend {
 public:
  virtual ~Backend() = default;

  // The name jobs give to run here ("local", "slurm", "slurm-steps").
  virtual const std::string& name() const = 0;

  // Rebuilds its state from the store after a (re)start of the daemon.
  virtual Status recover(double now) = 0;

  // Validates, stores and queues `spec`; the ids of the new jobs.
  virtual Result<std::vector<std::int64_t>> submit(JobSpec spec, double now) = 0;
  // Everything submit() checks, storing and starting nothing (`yard submit --test-only`):
  // bad input is Invalid, a valid job this backend could never run Unsatisfiable.
  virtual Status check(const JobSpec& spec, double now) const {
    (void)now;
    return spec.validate();
  }
  // What it will not do for a valid job, one line each for the user (the local backend
  // without sendmail for the job's --mail-type); nothing that would change the result,
  // which check() refuses.
  virtual std::vector<std::string> warnings(const JobSpec& spec) const {
    (void)spec;
    return {};
  }
  // Whether it acts on one of sbatch's options (core/sbatch_options.h, by long name; also
  // "gres" and "job-type"): a job asking for one it does not honour is refused when the
  // option would change the result, and warned about (Backends::check) otherwise.
  virtual bool honours(std::string_view sbatch_option) const {
    (void)sbatch_option;
    return false;
  }
  // Cancels those of `ids` that are its own (each id exists: the caller checked);
  // the ids it acted on.
  virtual Result<std::vector<std::int64_t>> cancel(const std::vector<std::int64_t>& ids, double now) = 0;
  // Holds, releases or requeues (core/job_action.h) its own among `jobs`, the records of
  // `ids` (an array's elements included): the ids acted on, or why a job named by its own
  // id cannot be. A backend without such actions refuses any of its jobs.
  virtual Result<std::vector<std::int64_t>> act(JobAction action, const std::vector<std::int64_t>& ids,
                                                const std::vector<JobRecord>& jobs, double now) {
    (void)ids;
    (void)now;
    for (const auto& j : jobs)
      if (j.backend == name())
        return err("job " + std::to_string(j.id) + ": backend " + name() + " cannot " + std::string(to_string(action)) +
                   " jobs (the local backend can)");
    return std::vector<std::int64_t>{};
  }
  // Whether a job may wait here on a job of another backend (a flow's step after a step
  // run elsewhere): it is held until that job ends, judged from the store.
  virtual bool waits_on_other_backends() const { return false; }
  // Whether a flow's steps of one foreach go here as arrays (server/step_packing.h): where
  // each submission costs (a cluster's scheduler), not where jobs start at once (local).
  virtual bool packs_steps() const { return false; }
  // Whether `--het-group` means something here (a component of a heterogeneous allocation).
  virtual bool has_components() const { return false; }
  // Job classes this backend defines (slurm.yaml's `classes:`), or null.
  virtual const JobClasses* job_classes() const { return nullptr; }

  // The descriptors it waits on, and those of them found readable.
  virtual std::vector<int> watched_fds() const { return {}; }
  virtual void ready(const std::vector<int>& fds) { (void)fds; }
  // After poll(), before anything is handled: a backend whose own descriptors alone woke
  // the loop may wait a little more for others (see local/report_coalescing.h).
  virtual void coalesce(std::vector<pollfd>& fds) { (void)fds; }
  // Time-driven work; with `start_new`, also choosing what to start (the daemon is not
  // shutting down).
  virtual void step(double now, bool start_new) = 0;
  virtual void after_commit() {}
  // Seconds until step() has something to do (3600 or more: nothing planned).
  virtual double next_wakeup_s(double now) const { (void)now; return 3600; }

  // Jobs it runs now, and stopping them all (shutdown --kill-jobs).
  virtual std::size_t running() const { return 0; }
  virtual void cancel_all_running() {}
  // `yard routes move` (backend_moves.cpp): gives up its PENDING job `id`, bound for
  // backend `to`: at once when nothing of it reached a scheduler (Given), or once its
  // scheduler took it out of its queue, decided there against its start (Leaving: then
  // take_released() hands it over, or it stays if it started first). With `dry_run`, what
  // it would do. The caller moves the job's record, and the backend it goes to adopt()s it.
  virtual Release release(std::int64_t id, const std::string& to, bool dry_run) {
    (void)id;
    (void)to;
    (void)dry_run;
    return {Release::Stays, "backend " + name() + " keeps its jobs"};
  }
  // The jobs that left since the last call (Leaving above), their records' moving_to
  // naming where they go.
  virtual std::vector<std::int64_t> take_released() { return {}; }
  // Takes a stored PENDING job moved here from another backend as its own.
  virtual Status adopt(const JobRecord& job, double now) {
    (void)now;
    return err("backend " + name() + " takes no job moved from another (job " + std::to_string(job.id) + ")");
  }
  // Why its scheduler is down now (its commands failing), or "" while it answers: routes
  // send its new jobs to their fallback meanwhile (routes/routes.h).
  virtual std::string down() const { return {}; }
  // routes.yaml sends jobs to these of its queues: their limits are read from its
  // scheduler, and queue_listing() gives the last reading (nullptr: it reads none).
  virtual void want_queue_limits(const std::set<std::string>& queues) { (void)queues; }
  virtual const QueueListing* queue_listing() const { return nullptr; }
  // Elements of one array it takes at most (0: no limit known), for clients that split
  // their arrays (the Python module's map).
  virtual std::int64_t max_array_size() const { return 0; }
  // Its part of `yard server status --json`: keys merged into the daemon's reply.
  virtual nlohmann::json describe() const { return nlohmann::json::object(); }
  // The daemon stops (the Slurm pilot's allocation ends with it).
  virtual void stop() {}
  // A line for the daemon's log at start, or empty.
  virtual std::string announce() const { return {}; }
};

}  // namespace yard
