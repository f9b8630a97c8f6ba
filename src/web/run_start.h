// Starting a run: a template's form filled in by a user becomes jobs of the service
// account's daemon. The values are checked as the form says, the jobs' options through
// `yard submit`'s own flag parser (the same validation as the CLI), the run recorded
// before anything is submitted, and the submission keyed by the run, so that asking again
// after a lost reply never starts it twice.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "web/site.h"

namespace yard::web {

struct StartRefusal {
  int status = 400;
  std::string message, field;
};

// A run nothing of which was submitted goes, with its directory.
void drop_run(Site& site, const RunRow& run);
// The daemon refused the jobs: the run goes (nothing of it runs). When the outcome is
// unknown (a daemon that did not answer), it stays: its jobs may exist.
StartRefusal refused(Site& site, const RunRow& run, const Error& e);

// A job's environment: the form's values and who started it, never the service's own.
std::map<std::string, std::string> job_environment(const User& user, std::int64_t run,
                                                   const std::map<std::string, std::string>& fields);

// `webhook`: a URL to POST the run to when it ends (checked against the site's prefixes), or "".
std::variant<RunRow, StartRefusal> start_run(Site& site, const User& user, const std::string& template_name,
                                             const nlohmann::json& values, const std::string& webhook = "");

// A run of one job described as the CLI describes it, for programs (POST /api/v1/jobs):
// {"command": [words] or "script": "body", "options": {yard submit's long flags}, "name"}.
std::variant<RunRow, StartRefusal> start_command_run(Site& site, const User& user, const nlohmann::json& job,
                                                     const std::string& webhook = "");

}  // namespace yard::web
