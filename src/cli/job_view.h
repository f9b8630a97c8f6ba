// How jobs look to a user: a table by default, JSON with --json (the same keys whatever
// the backend; print it with core/json_text.h's dump_json). Times are RFC 3339.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job_record.h"

namespace yard {

std::string rfc3339(double epoch_seconds);
nlohmann::json job_json(const JobRecord& j);
// The text of dump_json(job_json(j), 2), indented `level` levels more, written straight
// into `out` (`yard status --json` of 100,000 jobs builds no tree).
void append_job_json(std::string& out, const JobRecord& j, int level = 0);
// Seconds since the epoch, with their fraction (start and end times have one).
double wall_clock_now();
// The status table; `now` gives running jobs their ELAPSED. Text from users (name,
// reason) is escaped for the terminal, and a row is never cut.
void print_job_table(std::ostream& out, const std::vector<JobRecord>& jobs, double now = wall_clock_now());
// "12" or "10_3" for array elements.
std::string display_id(const JobRecord& j);
std::string display_id(const LoggedEvent& e);
// One event of the log as `yard watch --json` and `yard run --json` print it: id, job,
// name, backend, state, time, detail.
nlohmann::json event_json(const LoggedEvent& e);

}  // namespace yard
