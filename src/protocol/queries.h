// The daemon's read side (protocol/messages.h has the codec): jobs by query and page,
// one job in full, logs by byte range, accounts, and the two requests whose connection
// stays open: `wait` (one reply, when the jobs have ended) and `watch` (the event log as
// a stream, from a cursor). On the wire:
//   {"op":"jobs", JobQuery fields}         -> {"ok":true,"jobs":[...],"next":ID or 0}
//   {"op":"job","id":N}                    -> {"ok":true,"job":{...},"spec":{...},"events":[...]}
//   {"op":"logs","id":N,"stream":"stdout|stderr","offset":N,"limit":N}
//                                          -> {"ok":true,"path":...,"data":...,"offset":N,"size":N,"ended":bool}
//   {"op":"accounts"}                      -> {"ok":true,"accounts":[...],"by_target":[...]}
//   {"op":"wait","ids":[...]}              -> {"ok":true,"jobs":[...]} once every job has ended
//   {"op":"watch","since":ID,"follow":bool, filter fields}
//                                          -> {"ok":true,"event":{...}} per event, in log order;
//                                             without follow, {"ok":true,"end":ID} after the last
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job_record.h"
#include "core/job_spec.h"

namespace yard {

struct JobsRequest {
  JobQuery query;
};
struct JobsReply {
  std::vector<JobRecord> jobs;
  std::int64_t next = 0;  // the cursor of the next page (JobQuery::after); 0: this was the last
};

struct JobRequest {
  std::int64_t id = 0;
};
struct JobReply {
  JobRecord job;
  JobSpec spec;
  std::vector<JobEvent> events;
};

// The most a logs reply carries; a larger `limit` is cut to it (the client asks again).
constexpr std::int64_t kMaxLogChunk = 4 << 20;
struct LogsRequest {
  std::int64_t id = 0;
  bool stderr_stream = false;
  std::int64_t offset = 0;
  std::int64_t limit = kMaxLogChunk;
};
struct LogsReply {
  std::string path;  // "" while the job has not started
  std::string data;  // bytes [offset, offset + data.size())
  std::int64_t offset = 0;
  std::int64_t size = 0;  // the file's size when read
  bool ended = false;     // the job has ended: the file grows no more
};

struct AccountsRequest {};
struct AccountRow {
  std::string account, tier;  // tier "" when the account is in none
  bool best_effort = false;
  double share = 0, fairshare = 0;
  double used_core_seconds = 0, decayed_usage_core_seconds = 0;
  double allocation_core_seconds = 0, remaining_core_seconds = 0;  // 0 allocation: none
};
// Usage by account and by the backend (route target) its jobs ran on: every backend's,
// where `accounts` is the local scheduler's fair-share ledger.
struct AccountTargetRow {
  std::string account, target;
  double core_seconds = 0;
  std::int64_t jobs = 0;
};
struct AccountsReply {
  std::vector<AccountRow> accounts;
  std::vector<AccountTargetRow> by_target;
};

// The routes in force (routes/routes.h) as the daemon read them: the files, their
// wishes, classes and targets, and why the last reading was refused ("problem").
struct RoutesRequest {};
struct RoutesReply {
  nlohmann::json routes;
};

// `yard routes move FROM TO`: FROM's pending jobs that nothing of reached a scheduler
// go to TO (Backends::move); `dry_run`: what would move, nothing done.
//   {"op":"routes_move","from":B,"to":B,"dry_run":bool}
//                                          -> {"ok":true,"moved":[ids],"leaving":[ids],"stay":[{"id":N,"why":...}]}
struct RoutesMoveRequest {
  std::string from, to;
  bool dry_run = false;
};
struct JobStays {
  std::int64_t id = 0;
  std::string why;
};
struct RoutesMoveReply {
  std::vector<std::int64_t> moved;    // with dry_run: would move
  std::vector<std::int64_t> leaving;  // move once their scheduler took them out of its queue
  std::vector<JobStays> stay;
};

struct WaitRequest {
  std::vector<std::int64_t> ids;  // jobs, and arrays by their first id
};
struct WaitReply {
  std::vector<JobRecord> jobs;  // as they ended
};

struct WatchRequest {
  std::int64_t since = 0;  // the last event id the client has (0: from the start)
  bool follow = true;      // false: the log up to now, then an end line
  JobQuery filter;         // ids, states, name, backend, array_job_id
};
// One line of a watch stream: an event, or (without follow) the end of the log.
struct WatchLine {
  std::optional<LoggedEvent> event;
  std::int64_t end = 0;
};

}  // namespace yard
