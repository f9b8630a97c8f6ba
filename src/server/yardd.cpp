// yardd: the per-user daemon, a program of its own, so that any client can start it by
// path: the CLI, a Python process, a web service (client/daemon_program.h finds it).
//   yardd               runs the daemon in the foreground (clients start it detached)
//   yardd __job-host N  the daemon's job host (local/job_host.h), started by the daemon
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "backends/backend_registry.h"
#include "client/paths.h"
#include "local/job_host.h"
#include "server/daemon.h"
#include "server/scheduler_path.h"

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "__job-host") == 0) return yard::run_job_host(std::atoi(argv[2]));
  if (argc > 1 && std::strcmp(argv[1], "run") != 0) {
    std::cerr << "yardd: the daemon takes no arguments (it is started by yard, or runs in the foreground as "
                 "`yardd`); its files: `yard server status`\n";
    return 2;
  }
  // The schedulers' commands it runs are never yard's own Slurm front ends.
  if (const char* path = std::getenv("PATH")) ::setenv("PATH", yard::path_without_front_ends(path).c_str(), 1);
  return yard::run_daemon(yard::default_paths(), yard::all_backends());
}
