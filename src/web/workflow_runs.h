// Workflow files run from the web, as `yard run` runs them (the same request to the
// daemon: flow/flow_submission.h), each in a run directory of its own, its graph shown as
// a template's workflow's is:
//   POST /api/v1/workflows {"workflow": "<the file's text>", "name", "uploads": [...]}
// and a workflow run resumed, POST /api/v1/runs/{id}/resume: its file sent again under
// the same keys, so that steps that completed (their outputs there) do not run again,
// steps still pending or running are followed, and the others (failed, cancelled, or
// made stale by a changed input) run.
#pragma once

#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "web/run_start.h"
#include "web/site.h"

namespace yard::web {

// The most steps a workflow file sent to the web may have once its foreach are expanded.
constexpr std::size_t kMaxWebWorkflowSteps = 10'000;

std::variant<RunRow, StartRefusal> start_workflow_run(Site& site, const User& user, const nlohmann::json& body,
                                                      const std::string& webhook = "");

// A run started from a workflow file (not a template's, not a command's).
bool is_workflow_file_run(const RunRow& run);

// `run` resumed for its owner (`owner`: the run's owner as a user of the site), asked by
// the user named `by` (its owner or an admin).
std::variant<RunRow, StartRefusal> resume_workflow_run(Site& site, const User& owner, RunRow run, const std::string& by);

}  // namespace yard::web
