// Per-job output of a simulation as CSV: `job_id,submit,start,run,procs,est`, one line per
// job in trace order (the layout of the pyss reference files in tests/traces).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/result.h"
#include "sim/simulator.h"
#include "sim/workload.h"

namespace yard::sim {

void write_jobs_csv(std::ostream& out, const std::vector<SimJob>& jobs, const SimResult& result);
Status write_jobs_csv_file(const std::string& path, const std::vector<SimJob>& jobs,
                           const SimResult& result);

}  // namespace yard::sim
