#include "backends/oar/oar_errors.h"

namespace yard {

bool oar_transient_failure(int exit_code, std::string_view err) {
  if (exit_code == 0) return false;
  for (std::string_view words : {"Cannot connect to executor", "Could not connect to the socket",
                                 "DB connection error", "could not connect to server", "Connection refused",
                                 "Session terminated"})
    if (err.find(words) != std::string_view::npos) return true;
  return false;
}

}  // namespace yard
