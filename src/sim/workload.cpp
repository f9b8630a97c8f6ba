#include "sim/workload.h"

#include <algorithm>

namespace yard::sim {

std::vector<SimJob> jobs_from_swf(const SwfTrace& trace, Procs machine, std::size_t first) {
  std::vector<SimJob> jobs;
  jobs.reserve(trace.records.size());
  for (const SwfRecord& r : trace.records) {
    if (first > 0 && jobs.size() >= first) break;
    const Procs procs = r.allocated > 0 ? r.allocated : r.requested;
    if (r.run <= 0 || procs <= 0) continue;
    SimJob job;
    job.id = r.id;
    job.submit = r.submit;
    job.procs = std::min(procs, machine);
    job.estimate = r.requested_time > 0 ? r.requested_time : r.run;
    job.run = std::min(r.run, job.estimate);
    jobs.push_back(job);
  }
  return jobs;
}

}  // namespace yard::sim
