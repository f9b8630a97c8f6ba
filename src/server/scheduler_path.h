// The daemon's PATH without the folders of yard's own Slurm commands (src/frontends/slurm/):
// a daemon started from a shell where `yard slurm-commands env` put them first would
// otherwise run yard's sbatch as the Slurm backend's sbatch, and submit each Slurm job to
// itself, on the default backend. Jobs keep their own PATH (their spec's environment).
#pragma once

#include <string>

namespace yard {

// `path` (a PATH value) without the folders whose sbatch is yard's front end.
std::string path_without_front_ends(const std::string& path);

}  // namespace yard
