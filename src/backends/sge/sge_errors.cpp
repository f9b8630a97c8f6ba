#include "backends/sge/sge_errors.h"

namespace yard {

// The words of Grid Engine 8.1.9's clients when the qmaster is down or busy
// (tests/fixtures/sge/*_qmaster_down.stderr).
bool sge_transient_failure(int exit_code, std::string_view err) {
  if (exit_code == 0) return false;
  for (std::string_view words : {"unable to contact qmaster", "commlib error", "failed receiving gdi request",
                                 "unable to send message", "got no connection", "cannot connect",
                                 "can't unpack gdi request", "qmaster is not alive", "timeout"})
    if (err.find(words) != std::string_view::npos) return true;
  return false;
}

// qacct -j PATTERN: "error: job name yard-* not found" (status 1) when no record matches.
bool sge_found_nothing(int exit_code, std::string_view err) {
  return exit_code == 1 && err.find("error: job name") != std::string_view::npos &&
         err.find("not found") != std::string_view::npos;
}

}  // namespace yard
