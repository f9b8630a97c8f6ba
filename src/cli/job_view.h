// How jobs look to a user: a table by default, JSON with --json (the same keys whatever
// the backend). Times are RFC 3339.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/store.h"

namespace yard {

std::string rfc3339(double epoch_seconds);
nlohmann::json job_json(const JobRecord& j);
void print_job_table(std::ostream& out, const std::vector<JobRecord>& jobs);
// "12" or "10_3" for array elements.
std::string display_id(const JobRecord& j);

}  // namespace yard
