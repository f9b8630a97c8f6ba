#include "server/requests.h"

#include <unistd.h>

#include <algorithm>

#include "server/read_requests.h"

namespace yard {
namespace {

// --dependency=singleton: after every job of the same name (this daemon's user's) that
// has not ended; as afterany on each of them, so every backend holds the job the same
// way, and a later singleton of the name waits for this one in turn.
Status resolve_singleton(Store& store, JobSpec& spec) {
  const auto singleton = [](const Dependency& d) { return d.kind == DependencyKind::Singleton; };
  if (std::none_of(spec.dependencies.begin(), spec.dependencies.end(), singleton)) return {};
  std::erase_if(spec.dependencies, singleton);
  auto active = store.active_jobs();
  if (!active) return active.failure();
  for (const JobRecord& j : *active)
    if (j.name == spec.name) spec.dependencies.push_back({DependencyKind::AfterAny, j.id});
  return {};
}

}  // namespace

Result<SubmitReply> handle(DaemonState& d, SubmitRequest r, double now) {
  // A submission carries the client's key: a client that lost its connection sends it
  // again, and gets the ids its first try stored (exactly once).
  if (!r.key.empty()) {
    auto earlier = d.store.submission(r.key);
    if (!earlier) return earlier.failure();
    if (*earlier) return SubmitReply{**earlier, std::nullopt, {}, ""};
  }
  if (d.draining) return Error{"the daemon is shutting down", ErrorKind::Unavailable};
  if (auto s = resolve_singleton(d.store, r.spec); !s) return s.failure();
  std::vector<std::string> warnings;
  std::string route;
  if (r.test_only) {
    auto job = d.backends.check(std::move(r.spec), r.job_class, now, &warnings, &route);
    if (!job) return job.failure();
    return SubmitReply{{}, std::move(*job), std::move(warnings), std::move(route)};
  }
  auto ids = d.backends.submit(std::move(r.spec), r.job_class, now, &warnings, &route);
  if (!ids) return ids.failure();
  if (!r.key.empty())
    if (auto s = d.store.record_submission(r.key, *ids, now); !s) return s.failure();
  return SubmitReply{std::move(*ids), std::nullopt, std::move(warnings), std::move(route)};
}

Result<CancelReply> handle(DaemonState& d, const CancelRequest& r, double now) {
  auto acted = d.backends.cancel(d.store, r.ids, now);
  if (!acted) return acted.failure();
  return CancelReply{std::move(*acted)};
}

Result<JobActionReply> handle(DaemonState& d, const JobActionRequest& r, double now) {
  auto acted = d.backends.act(d.store, r.action, r.ids, now);
  if (!acted) return acted.failure();
  return JobActionReply{std::move(*acted)};
}

Result<RoutesMoveReply> handle(DaemonState& d, const RoutesMoveRequest& r, double now) {
  auto moves = d.backends.move(d.store, r.from, r.to, r.dry_run, now);
  if (!moves) return moves.failure();
  RoutesMoveReply reply;
  for (auto& m : *moves) {
    if (m.why_not.empty()) (m.leaving ? reply.leaving : reply.moved).push_back(m.id);
    else reply.stay.push_back({m.id, std::move(m.why_not)});
  }
  return reply;
}

PingReply handle(DaemonState& d, const PingRequest&) {
  auto last = d.store.last_event_id();
  return PingReply{::getpid(), d.paths.socket, d.paths.store, d.backends.describe(), last ? *last : 0};
}

ShutdownReply handle(DaemonState& d, const ShutdownRequest& r) {
  if (r.kill_jobs) {
    d.draining = true;
    for (const auto& b : d.backends.all()) b->cancel_all_running();
  } else {
    d.stopping = true;
  }
  return {};
}

Answer answer(DaemonState& d, std::string_view line, double now) {
  auto said = [](std::string reply_line, bool changes = false) {
    Answer a;
    a.line = std::move(reply_line);
    a.changed = changes;
    return a;
  };
  auto request = decode_request(line);
  if (!request) return said(encode_error(request.failure()));
  auto reply = [&said](const auto& r, bool changes = false) {
    if (!r) return said(encode_error(r.failure()));
    return said(encode_reply(*r), changes);
  };
  try {
    if (auto* s = std::get_if<SubmitRequest>(&*request)) return reply(handle(d, std::move(*s), now), true);
    if (auto* m = std::get_if<SubmitManyRequest>(&*request)) return reply(handle(d, std::move(*m), now), true);
    if (auto* c = std::get_if<CancelRequest>(&*request)) return reply(handle(d, *c, now), true);
    if (auto* a = std::get_if<JobActionRequest>(&*request)) return reply(handle(d, *a, now), true);
    if (auto* p = std::get_if<PingRequest>(&*request)) return said(encode_reply(handle(d, *p)));
    if (auto* s = std::get_if<ShutdownRequest>(&*request)) return said(encode_reply(handle(d, *s)));
    if (auto* j = std::get_if<JobsRequest>(&*request)) return reply(handle(d.store, *j));
    if (auto* j = std::get_if<JobRequest>(&*request)) return reply(handle(d.store, *j));
    if (auto* l = std::get_if<LogsRequest>(&*request)) return reply(handle(d.store, *l));
    if (auto* a = std::get_if<AccountsRequest>(&*request)) return reply(handle(d.store, d.paths, *a, now));
    if (std::get_if<RoutesRequest>(&*request)) return said(encode_reply(RoutesReply{d.backends.routes_json(d.store)}));
    if (auto* m = std::get_if<RoutesMoveRequest>(&*request)) return reply(handle(d, *m, now), !m->dry_run);
    if (auto* f = std::get_if<FlowsRequest>(&*request)) return reply(handle(d.store, *f));
    if (auto* f = std::get_if<FlowRequest>(&*request)) return reply(handle(d.store, *f));
    if (auto* g = std::get_if<DigestsRequest>(&*request)) return reply(handle(d.store, *g));
    Answer later;
    if (auto* w = std::get_if<WaitRequest>(&*request)) later.wait = std::move(*w);
    else later.watch = std::move(std::get<WatchRequest>(*request));
    return later;
  } catch (const std::exception& e) {  // a backend's bug must not take the daemon down
    return said(encode_error(Error{std::string("internal error: ") + e.what(), ErrorKind::Internal}));
  }
}

std::string handle_line(DaemonState& d, std::string_view line, double now, bool& changed) {
  Answer a = answer(d, line, now);
  changed = a.changed;
  return a.line;
}

}  // namespace yard
