#include "backends/lsf/lsf_errors.h"

#include "core/text.h"

namespace yard {

bool lsf_transient_failure(int exit_code, std::string_view err) {
  if (exit_code == 0) return false;
  for (std::string_view words : {"LSF is processing your request", "Failed in an LSF library call", "Cannot connect to LSF",
                                 "Request from non-LSF host rejected", "LSF daemon (LIM) not responding",
                                 "batch system daemon not responding", "Connection refused", "timed out"})
    if (err.find(words) != std::string_view::npos) return true;
  return false;
}

bool lsf_usable_despite(int exit_code, std::string_view err) {
  if (exit_code == 0) return false;
  bool any = false;
  for (std::string_view line : split(err, '\n')) {
    line = trim(line);
    if (line.empty()) continue;
    const bool unknown = starts_with(line, "Job <") && line.find("> is not found") != std::string_view::npos;
    if (!unknown && line != "No unfinished job found" && line != "No job found") return false;
    any = true;
  }
  return any;
}

}  // namespace yard
