#include "backends/pbs/pbs_errors.h"

#include "core/text.h"

namespace yard {

bool pbs_transient_failure(int exit_code, std::string_view err) {
  if (exit_code == 0) return false;
  if (exit_code == 162 || exit_code == 171 || exit_code == 183) return true;
  for (std::string_view words : {"cannot connect to server", "Connection refused", "Communication failure",
                                 "Premature end of message", "timed out", "Connection timed out"})
    if (err.find(words) != std::string_view::npos) return true;
  return false;
}

bool pbs_usable_despite(int exit_code, std::string_view err) {
  if (exit_code != 153 && exit_code != 35) return false;
  bool any = false;
  for (std::string_view line : split(err, '\n')) {
    line = trim(line);
    if (line.empty()) continue;
    if (!starts_with(line, "qstat: ")) return false;
    if (line.find("Unknown Job Id") == std::string_view::npos && line.find("Job has finished") == std::string_view::npos)
      return false;
    any = true;
  }
  return any;
}

}  // namespace yard
