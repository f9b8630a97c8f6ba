// The argv of OAR 2.5.9's client commands, for one batch of jobs each: never one call
// per job, and never a shell string.
#pragma once

#include <string>
#include <vector>

#include "core/job_action.h"

namespace yard {

// oarsub -S: the #OAR lines of the script are the job's options.
std::vector<std::string> oarsub_argv(const std::string& script_path);
// The user's current jobs (Waiting ... Finishing): what a status cycle reads.
std::vector<std::string> oarstat_queue_argv(const std::string& user);
// The full records (exit code, events) of jobs that left the current ones.
std::vector<std::string> oarstat_history_argv(const std::vector<std::string>& native_ids);
// The user's jobs named `native_names` submitted since `since` (Unix seconds), ended
// ones included: after a crash, the submissions whose id was never stored.
std::vector<std::string> oarstat_named_argv(const std::string& user, const std::vector<std::string>& native_names,
                                            double since);
std::vector<std::string> oardel_argv(const std::vector<std::string>& native_ids);
// oarhold (a waiting job to Hold) and oarresume (back to Waiting); OAR requeues no running
// job of a user's asking (oarsub --resubmit makes a new job): empty for the requeues.
std::vector<std::string> oar_action_argv(JobAction action, const std::vector<std::string>& native_ids);

// `text` as an SQL string literal: quoted, its quotes doubled (PostgreSQL's standard
// strings; the names and users written here have no backslash).
std::string sql_literal(const std::string& text);

}  // namespace yard
