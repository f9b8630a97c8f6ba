#include "backends/mpirun_argv.h"

namespace yard {

std::vector<std::string> mpirun_mpmd_argv(const JobSpec& spec) {
  std::vector<std::string> a{"mpirun", "-np", std::to_string(spec.res.ntasks)};
  a.insert(a.end(), spec.argv.begin(), spec.argv.end());
  for (auto& c : spec.components) {
    a.insert(a.end(), {":", "-np", std::to_string(c.res.ntasks)});
    a.insert(a.end(), c.argv.begin(), c.argv.end());
  }
  return a;
}

}  // namespace yard
