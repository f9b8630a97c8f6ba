// A run as the API shows it: its row (who, which template, the form's values) and its
// jobs' records as the daemon has them now, summed up (state, times, requested and used
// resources); a workflow's steps each with its state.
#pragma once

#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/daemon_client.h"
#include "core/job_record.h"
#include "web/web_db.h"

namespace yard::web {

// A run's JSON lists at most this many of its job ids (`job_count`: all).
inline constexpr std::size_t kShownJobIds = 100;

nlohmann::json run_json(const RunRow& run, const std::map<std::int64_t, JobRecord>& jobs);

// The records of every job of `runs`, by id, in one request to the daemon.
Result<std::map<std::int64_t, JobRecord>> jobs_of(DaemonClient& daemon, const std::vector<RunRow>& runs);

// A user may see a run: theirs, or they are an admin.
inline bool may_see(const User& user, const std::string& owner) { return user.admin || user.name == owner; }

}  // namespace yard::web
