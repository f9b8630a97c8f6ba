// A job's environment as sbatch's --export builds it, from the submitting environment.
// Pure: the submitting environment is an argument (current_environment() reads this
// process's), so the rules are tested without touching the test's own environment.
#pragma once

#include <map>
#include <string>

#include "core/result.h"

namespace yard {

using Environment = std::map<std::string, std::string>;

// This process's environment (entries without '=' are skipped).
Environment current_environment();

// --export: ALL (also ""), NONE, or a comma list of NAME and NAME=value, with ALL to start
// from everything. NONE keeps HOME, USER and LOGNAME and sets a plain PATH.
Result<Environment> export_environment(const std::string& spec, const Environment& all);

}  // namespace yard
