// The daemon's protocol: one request and one reply type per operation, and their one
// codec. On the wire each is one JSON object on one line (clients: client/; the daemon:
// server/requests.h):
//   {"op":"submit","spec":{JobSpec},"class":"...","key":"..."}  -> {"ok":true,"ids":[...]}
//   {"op":"submit",...,"test_only":true}                        -> {"ok":true,"ids":[],"job":{JobSpec}}
//   {"op":"submit_many","env":{...},"jobs":[{"spec":{JobSpec},"class":"...","needs":[0,..]}],"key":"..."}
//                                                     -> {"ok":true,"ids":[[...],[...]],"warnings":[...]}
//     with "flow":{"name","file","run_dir","digests":[...]} and each job's "key", "outputs", "rerun"
//                                                     -> also "flow_id":N,"origins":["submitted|attached|up-to-date",...]
//   {"op":"cancel","ids":[...]}                                 -> {"ok":true,"ids":[acted on]}
//   {"op":"ping"}                     -> {"ok":true,"pid":N,"socket":...,"store":..., backends' keys}
//   {"op":"shutdown","kill_jobs":bool}                          -> {"ok":true}
// and the read side, jobs, job, logs, accounts, wait and watch (protocol/queries.h), flows,
// flow and digests (protocol/flows.h).
// A refusal: {"ok":false,"error":"message a user can act on","kind":"invalid|not_found|..."}.
// Job texts are bytes (core/byte_json.h): a text that is not UTF-8 travels as base64.
// The daemon validates every spec again: the wire is a trust boundary.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job_action.h"
#include "core/flow_record.h"
#include "core/job_spec.h"
#include "core/result.h"
#include "protocol/flows.h"
#include "protocol/queries.h"

namespace yard {

// The largest request line the daemon reads; a longer one is refused ("request too
// large") and the client checks it first, so that it is never sent at all.
constexpr std::size_t kMaxRequestBytes = 64u << 20;

struct SubmitRequest {
  JobSpec spec;
  std::string job_class;  // "" = none
  // The client's key for this submission: sent again after a broken connection, it gets
  // the ids of the first try (exactly once). "" = none.
  std::string key;
  // Check only (`yard submit --test-only`): nothing is stored or started.
  bool test_only = false;
};
struct SubmitReply {
  std::vector<std::int64_t> ids;  // none for a test_only request
  // For a test_only request: the job as it would be submitted (class defaults applied,
  // its backend named).
  std::optional<JobSpec> job;
  std::vector<std::string> warnings;  // what the backend will not do for the job
  // How routes.yaml routed it ("wish slurm -> local (routes.yaml:2); class small ..."; "": not).
  std::string route;
};

// Many jobs in one request, stored together or not at all: a flow's steps (`yard run`).
// A job's needs are earlier jobs of the same request, by their place: each becomes
// afterok on every id of that job (all of an array's). One environment for them all,
// sent once, unless a job has its own (own_env).
//
// With `flow`, the jobs are the steps of a run of a flow file, recorded as a flow
// (core/flow_record.h): a step whose key (flow/step_key.h) names a job that completed,
// its outputs all there, or that is still pending or running, is not submitted again: it
// takes that job (its origin says which); a step that needs a step submitted anew is
// submitted anew too. `rerun` submits a step whatever its key finds.
struct SubmitManyRequest {
  struct Job {
    JobSpec spec;
    std::string job_class;
    std::vector<std::int32_t> needs;
    bool own_env = false;
    // Flow steps only:
    std::string key;                   // "" : always submitted
    std::string parts;                 // what the key was made of, kept with the step
    std::vector<std::string> outputs;  // absolute paths, all there for a completed job to count
    bool rerun = false;
    // The steps of one foreach, by its name ("": none): the daemon may submit those equal
    // but for their command as one array (server/step_packing.h).
    std::string pack;
    // And the most of them to run one after another in one job (server/step_series.h);
    // 0 or 1: one job each.
    std::int32_t group = 0;
  };
  struct FlowRun {
    std::string name, file, run_dir;
    std::vector<FileDigest> digests;  // of the steps' inputs, recorded for the next run
  };
  std::map<std::string, std::string> env;
  std::vector<Job> jobs;
  std::string key;  // as SubmitRequest's
  std::optional<FlowRun> flow;
};
struct SubmitManyReply {
  std::vector<std::vector<std::int64_t>> ids;  // each job's, in the request's order
  std::vector<std::string> warnings;          // "job N (name): what its backend will not do"
  // A flow's: its id, and where each job came from.
  std::int64_t flow_id = 0;
  std::vector<StepOrigin> origins;
};

struct CancelRequest {
  std::vector<std::int64_t> ids;  // jobs, or whole arrays by their first id
};
struct CancelReply {
  std::vector<std::int64_t> ids;  // those acted on (already ended ones are not)
};

// yard hold|release|requeue: {"op":"hold"|"release"|"requeue"|"requeue_hold","ids":[...]},
// answered as a cancel is (the ids acted on).
struct JobActionRequest {
  JobAction action = JobAction::Hold;
  std::vector<std::int64_t> ids;  // jobs, or whole arrays by their first id
};
using JobActionReply = CancelReply;

struct PingRequest {};
struct PingReply {
  long pid = 0;
  std::string socket, store;
  // What each backend says of itself (Backend::describe(), merged): "running",
  // "pending", "cpus", "slurm_active", ...
  nlohmann::json backends = nlohmann::json::object();
  std::int64_t last_event = 0;  // the event log's last id: a watch from here sees what follows
};

struct ShutdownRequest {
  bool kill_jobs = false;  // cancel every running job and stop once they ended
};
struct ShutdownReply {};

using Request = std::variant<SubmitRequest, SubmitManyRequest, CancelRequest, JobActionRequest, PingRequest, ShutdownRequest, JobsRequest, JobRequest,
                             LogsRequest, AccountsRequest, RoutesRequest, RoutesMoveRequest, WaitRequest, WatchRequest, FlowsRequest, FlowRequest,
                             DigestsRequest>;

// One line each way, without its '\n'.
std::string encode_request(const Request& r);
Result<Request> decode_request(std::string_view line);

std::string encode_reply(const SubmitReply& r);
std::string encode_reply(const SubmitManyReply& r);
std::string encode_reply(const CancelReply& r);
std::string encode_reply(const PingReply& r);
std::string encode_reply(const ShutdownReply& r);
std::string encode_reply(const JobsReply& r);
std::string encode_reply(const JobReply& r);
std::string encode_reply(const LogsReply& r);
std::string encode_reply(const AccountsReply& r);
std::string encode_reply(const RoutesReply& r);
std::string encode_reply(const RoutesMoveReply& r);
std::string encode_reply(const WaitReply& r);
std::string encode_reply(const WatchLine& r);
std::string encode_reply(const FlowsReply& r);
std::string encode_reply(const FlowReply& r);
std::string encode_reply(const DigestsReply& r);
std::string encode_error(const Error& e);

// A reply line: the reply, or the daemon's refusal with its kind (or, for a line that is
// no reply at all, an Internal error).
Result<SubmitReply> decode_submit_reply(std::string_view line);
Result<SubmitManyReply> decode_submit_many_reply(std::string_view line);
Result<CancelReply> decode_cancel_reply(std::string_view line);
Result<PingReply> decode_ping_reply(std::string_view line);
Result<ShutdownReply> decode_shutdown_reply(std::string_view line);
Result<JobsReply> decode_jobs_reply(std::string_view line);
Result<JobReply> decode_job_reply(std::string_view line);
Result<LogsReply> decode_logs_reply(std::string_view line);
Result<AccountsReply> decode_accounts_reply(std::string_view line);
Result<RoutesReply> decode_routes_reply(std::string_view line);
Result<RoutesMoveReply> decode_routes_move_reply(std::string_view line);
Result<WaitReply> decode_wait_reply(std::string_view line);
Result<WatchLine> decode_watch_line(std::string_view line);
Result<FlowsReply> decode_flows_reply(std::string_view line);
Result<FlowReply> decode_flow_reply(std::string_view line);
Result<DigestsReply> decode_digests_reply(std::string_view line);

// A PingReply as `yard server status --json` shows it (pid, socket, store, the backends' keys).
nlohmann::json ping_json(const PingReply& r);

}  // namespace yard
