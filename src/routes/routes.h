// Routes (routes.yaml): a user's wish, a scheduler or a size class, mapped to a target by
// one line of configuration, so that one line changed sends every job meant for one
// cluster to another, and back. The site's file (/etc/switchyard/routes.yaml) is read
// first; the user's (~/.config/switchyard/routes.yaml) adds to it and wins where both say
// a thing.
//
//   wishes:                       # a wish -> a backend, or another wish
//     east: west                  # every job wished for east goes to west
//     cluster: slurm
//   classes:                      # size classes, smallest first: their limits
//     small:  {time: 1:00:00, cpus: 4, mem: 8G}
//     medium: {time: 1-00:00:00, cpus: 16, mem: 64G}
//     large:  {time: 7-00:00:00}
//   targets:                      # per backend: a class's queue, an account, a QOS
//     west: {queues: {small: 1H, medium: 1D, large: 1W}, account: proj}
//     east: {drain: true, fallback: west}   # no new jobs: they go to west
//
// A job's wish is its --backend (none: the default backend); it follows the wishes to a
// backend. Its class is its --class, or else the first class whose limits hold it; a job
// too big for every class is refused, naming the largest and the limit it breaks. On the
// target, the class's queue becomes the job's partition, and the target's account and QOS
// its own, where the job did not choose them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job_spec.h"
#include "core/result.h"

namespace yard {

struct SizeClass {
  std::string name;
  std::int64_t time_s = 0;  // 0: no limit (nor default)
  std::int64_t cpus = 0;
  std::uint64_t mem_bytes = 0;
  std::string where;  // "routes.yaml:7", for messages
};

struct RouteTarget {
  std::map<std::string, std::string> queues;  // class -> the target's queue
  std::string account, qos;
  // Drained: it takes no new job; they go to `fallback` (a backend), or are refused when
  // it has none. Its jobs already there finish there.
  bool drain = false;
  std::string fallback;
  std::string where;  // "routes.yaml:9", for messages
  std::map<std::string, std::string> queue_where;  // class -> where its queue is named
};

struct Routes {
  std::map<std::string, std::string> wishes;       // wish -> wish or backend
  std::map<std::string, std::string> wish_where;   // wish -> "file:line"
  std::vector<SizeClass> classes;                  // smallest first
  std::map<std::string, RouteTarget> targets;      // backend -> its queues, account, QOS
  bool empty() const { return wishes.empty() && classes.empty() && targets.empty(); }
};

// The routes of `files` in order (the site's, then the user's; a missing file is none),
// every backend named checked with `is_backend`: an unknown one, a wish that leads to
// itself, a class's queue on a target for an unknown class, a bad limit are
// "file:line: what", and nothing of the files is taken.
Result<Routes> load_routes(const std::vector<std::string>& files, const std::function<bool(const std::string&)>& is_backend);

// Where a job goes: the backend its wish leads to, its size class ("" when there are
// none), and how (for --test-only and the log).
struct Route {
  std::string wish, backend, size_class, queue;
  std::string why;  // "wish east -> west (routes.yaml:3); class small (routes.yaml:7): queue 1H"
};

// Why a backend is down now (its scheduler's commands failing: Backend::down()), or "".
using DownReason = std::function<std::string(const std::string& backend)>;

// The route of `spec` (its backend the wish, `job_class` its --class when it is one of
// the routes' classes), and `spec` put on it: backend, partition, account, QOS where it
// did not choose them, and the class's time as its limit when it gave none. A job that
// no class holds, or that breaks the limits of the class it named, is refused. A target
// drained, or `down`, sends the job to its fallback (and on); a drained one without a
// fallback refuses it, a down one without keeps it (it is submitted once the scheduler
// answers again).
Result<Route> route_job(const Routes& routes, JobSpec& spec, const std::string& job_class,
                        const DownReason& down = nullptr);

// A job moved from backend `from` to `to` (`yard routes move`): what the routes put on it
// for `from` (its class's queue there, `from`'s account and QOS) becomes what they give it
// on `to`; what the job chose itself stays.
void retarget(const Routes& routes, JobSpec& spec, const std::string& from, const std::string& to);

// The routes as JSON: {"wishes": [{"wish", "backend", "where"}], "classes": [{"name",
// "time_s", "cpus", "mem_bytes", "where"}], "targets": [{"backend", "queues", "account",
// "qos", "drain", "fallback", "where"}]}; each wish with the backend it leads to now.
nlohmann::json routes_json(const Routes& routes);

// Whether `name` is one of the routes' size classes.
bool is_size_class(const Routes& routes, const std::string& name);

}  // namespace yard
