#include "sim/jobs_csv.h"

#include <fstream>

namespace yard::sim {

void write_jobs_csv(std::ostream& out, const std::vector<SimJob>& jobs, const SimResult& result) {
  out << "job_id,submit,start,run,procs,est\n";
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const SimJob& j = jobs[i];
    out << j.id << ',' << j.submit << ',' << result.start[i] << ',' << j.run << ',' << j.procs
        << ',' << j.estimate << '\n';
  }
}

Status write_jobs_csv_file(const std::string& path, const std::vector<SimJob>& jobs,
                           const SimResult& result) {
  std::ofstream out(path);
  if (!out) return err("cannot write '" + path + "'");
  write_jobs_csv(out, jobs, result);
  out.flush();
  if (!out) return err("cannot write '" + path + "'");
  return Status::Ok();
}

}  // namespace yard::sim
