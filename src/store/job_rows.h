// A job's row in the store: the columns every job query selects, read by name.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace yard {

// "j.id, j.uid, ... FROM jobs j LEFT JOIN accounting a ON ...": what follows SELECT.
const std::string& job_columns();
// The job in the current row of a statement that selected job_columns().
JobRecord read_job(const sql::Statement& s);
// Every row of such a statement.
Result<std::vector<JobRecord>> read_jobs(sql::Statement& st);

}  // namespace yard
