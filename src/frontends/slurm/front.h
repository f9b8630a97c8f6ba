// What Slurm's commands as front ends to yard share (docs/SLURM-COMMANDS.md): one program,
// yard-slurm, run under each command's name (sbatch, squeue, ...: symlinks in the
// slurm-commands folder that `yard slurm-commands env` puts first on PATH), speaking to
// the user's daemon through the client library, for any backend behind it. Each command
// reads Slurm 22.05's flags as Slurm does and prints Slurm's formats; its errors are
// Slurm's ("squeue: error: ...", exit 1).
#pragma once

#include <string>
#include <vector>

#include "client/daemon_client.h"

namespace yard::slurm_front {

using Args = std::vector<std::string>;

int sbatch_main(const Args& args);
int squeue_main(const Args& args);
int sacct_main(const Args& args);
int scancel_main(const Args& args);
int scontrol_main(const Args& args);
int sinfo_main(const Args& args);
int sacctmgr_main(const Args& args);
int srun_main(const Args& args);

// The daemon, started when none runs (as `yard` does); its notices on stderr.
DaemonClient client(const std::string& command);
// "CMD: error: MESSAGE" on stderr; returns 1, Slurm's exit status for an error.
int fail(const std::string& command, const std::string& message);
// The user's name (Slurm's USER column, --me, -u).
std::string user_name();
std::string user_name(unsigned uid);
bool user_exists(const std::string& name);
// This machine's name: the local backend's node (NodeList).
std::string host_name();

// getopt_long over `args` (without the program name): each option to `on(letter or long
// option's code, value)`; the operands that remain are returned. An unknown option is
// reported as getopt does, and nullopt returned.
struct Option {
  const char* name;
  int has_arg;  // no_argument, required_argument, optional_argument
  int code;     // the short letter, or a code >= 256 for long-only options
};

}  // namespace yard::slurm_front
