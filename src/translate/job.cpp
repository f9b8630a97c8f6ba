#include "translate/job.h"

namespace yard::translate {

bool is_kind(std::string_view kind) {
  for (auto k : kKinds)
    if (k == kind) return true;
  return false;
}

std::string_view kind_title(std::string_view kind) {
  if (kind == "slurm") return "Slurm";
  if (kind == "pbs") return "PBS Pro";
  if (kind == "torque") return "Torque";
  if (kind == "lsf") return "LSF";
  if (kind == "sge") return "Grid Engine";
  if (kind == "oar") return "OAR";
  if (kind == "htcondor") return "HTCondor";
  if (kind == "flux") return "Flux";
  return kind;
}

int Job::line(std::string_view option) const {
  auto it = lines.find(option);
  return it == lines.end() ? 0 : it->second;
}

std::string Job::option(std::string_view name, bool* given) const {
  std::string value;
  bool found = false;
  for (const auto& [n, v] : options)
    if (n == name) value = v, found = true;  // the last one counts
  if (given) *given = found;
  return value;
}

}  // namespace yard::translate
