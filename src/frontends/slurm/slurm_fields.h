// A yard job's fields as Slurm prints them, by a canonical name (lower case, as sacct and
// squeue -O names are read): the values of squeue's columns and of sacct's, and Slurm's
// ways of writing times ("1-02:03:04", "2024-01-31T12:34:56", "UNLIMITED", "Unknown")
// and exit codes ("N:S").
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/job_record.h"

namespace yard::slurm_front {

struct FieldContext {
  double now = 0;
  std::string user;  // the daemon's user: every job is this user's
  std::string host;  // this machine: the local backend's node
};

// The value, or nullopt for a name this front end does not know.
std::optional<std::string> field_value(std::string_view name, const JobRecord& j, const FieldContext& c);

// squeue's %M and %l: M:SS, H:MM:SS or D-HH:MM:SS.
std::string squeue_duration(std::int64_t seconds);
// sacct's Elapsed and Timelimit: HH:MM:SS or D-HH:MM:SS.
std::string sacct_duration(std::int64_t seconds);
// Local time as Slurm prints it: 2024-01-31T12:34:56.
std::string slurm_time(double epoch_seconds);

}  // namespace yard::slurm_front
