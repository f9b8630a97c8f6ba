#include "backends/flux/flux_errors.h"

#include "core/text.h"

namespace yard {

bool flux_transient_failure(int exit_code, std::string_view err) {
  if (exit_code == 0) return false;
  for (std::string_view words : {"Unable to connect to Flux", "broker socket", "Connection refused", "Connection reset",
                                 "Resource temporarily unavailable", "timed out"})
    if (err.find(words) != std::string_view::npos) return true;
  return false;
}

bool flux_usable_despite(int exit_code, std::string_view err) {
  if (exit_code == 0) return false;
  bool any = false;
  for (std::string_view line : split(err, '\n')) {
    line = trim(line);
    if (line.empty()) continue;
    // "JobID f3croSDd unknown", perhaps after the command's own "flux-jobs: ERROR: ".
    const auto at = line.find("JobID ");
    if (at == std::string_view::npos || !line.ends_with(" unknown")) return false;
    any = true;
  }
  return any;
}

bool flux_refused_for_a_dependency(std::string_view err) {
  for (std::string_view line : split(err, '\n')) {
    line = trim(line);
    if (line.find("dependency: ") == std::string_view::npos) continue;
    if (line.ends_with(" failed or was canceled") || line.ends_with(" succeeded") || line.ends_with(" never started"))
      return true;
  }
  return false;
}

}  // namespace yard
