#include "backends/job_classes.h"

#include <algorithm>

namespace yard {

Status apply_job_class(JobSpec& spec, const std::string& name, const JobClasses& classes) {
  auto it = classes.find(name);
  if (it == classes.end()) {
    if (classes.empty())
      return err("unknown class '" + name + "': no classes are defined (slurm.yaml `classes:`)");
    std::string known;
    for (auto& [n, c] : classes) known += (known.empty() ? "" : ", ") + n;
    return err("unknown class '" + name + "' (known: " + known + ")");
  }
  const JobClass& c = it->second;
  if (!spec.backend.empty() && spec.backend != c.backend)
    return err("class '" + name + "' runs on backend '" + c.backend + "', but --backend " + spec.backend +
               " was given: drop one of them");
  spec.backend = c.backend;
  if (spec.partition.empty()) spec.partition = c.partition;
  if (spec.account.empty()) spec.account = c.account;
  if (spec.qos.empty()) spec.qos = c.qos;
  if (spec.res.walltime_s == 0) spec.res.walltime_s = c.walltime_s;
  for (auto& t : c.job_types)
    if (std::find(spec.job_types.begin(), spec.job_types.end(), t) == spec.job_types.end()) spec.job_types.push_back(t);
  if (!spec.requeue) spec.requeue = c.requeue;
  return {};
}

}  // namespace yard
