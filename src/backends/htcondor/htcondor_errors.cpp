#include "backends/htcondor/htcondor_errors.h"

namespace yard {

bool htcondor_transient_failure(int exit_code, std::string_view err) {
  if (exit_code == 0) return false;
  // condor_submit's and condor_q's words when the schedd (or the collector that finds it)
  // does not answer, or answers too late.
  for (std::string_view words : {"Failed to connect to local queue manager", "Failed to connect to", "Can't find address",
                                 "Unable to locate local daemon", "Failed to fetch ads", "SECMAN:", "timed out",
                                 "Failed to commit job submission", "Connection refused"})
    if (err.find(words) != std::string_view::npos) return true;
  return false;
}

}  // namespace yard
