#include "backends/torque/torque_errors.h"

#include "core/text.h"

namespace yard {

bool torque_transient_failure(int exit_code, std::string_view err) {
  if (exit_code == 0) return false;
  for (std::string_view words : {"cannot connect to server", "Cannot connect to specified server", "Unable to communicate with",
                                 "Connection refused", "Premature end of message", "timed out", "End of File"})
    if (err.find(words) != std::string_view::npos) return true;
  return false;
}

bool torque_usable_despite(int exit_code, std::string_view err) {
  if (exit_code == 0) return false;
  bool any = false;
  for (std::string_view line : split(err, '\n')) {
    line = trim(line);
    if (line.empty()) continue;
    if (!starts_with(line, "qstat: Unknown Job Id")) return false;
    any = true;
  }
  return any;
}

}  // namespace yard
