#include "backends/slurm/slurm_errors.h"

#include <array>

namespace yard {

bool slurm_transient_failure(int exit_code, std::string_view err) {
  // Messages of Slurm 22.05 (src/common/slurm_errno.c and the clients) when the
  // controller or slurmdbd cannot be reached or asks to come back later.
  static constexpr std::array<std::string_view, 11> kTransient = {
      "Unable to contact slurm controller",
      "Socket timed out",
      "temporarily unable to accept job",
      "Slurm temporarily unavailable",
      "Zero Bytes were transmitted or received",
      "Connection refused",
      "Connection timed out",
      "Resource temporarily unavailable",
      "Problem talking to the database",
      "slurmdbd",
      // A configless client (no slurm.conf of its own) that cannot fetch the controller's:
      // the controller is away, or not yet found; its job was not refused.
      "failed to fetch config",
  };
  for (auto m : kTransient)
    if (err.find(m) != std::string_view::npos) return true;
  // Exit status 8 is what the clients return when the controller is down (scancel, squeue)
  // even when their message is one we do not know.
  return exit_code == 8;
}

}  // namespace yard
