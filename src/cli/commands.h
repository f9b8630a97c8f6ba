// The `yard` subcommands. Each returns the process exit status: 0 success, 1 a job or
// the daemon failed, 2 bad input (nothing was changed), 4 the daemon did not answer and
// the request's outcome is unknown (it may have been carried out: look before retrying).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/result.h"

namespace yard {

constexpr int kExitBadInput = 2;
constexpr int kExitOutcomeUnknown = 4;

// The one place an error's kind becomes an exit status: what can never succeed as given
// is bad input (2); a resource that failed, a backend too small for a valid job, or a
// bug, is a failure (1).
inline int exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Invalid:
    case ErrorKind::NotFound:
    case ErrorKind::Conflict:
      return kExitBadInput;
    case ErrorKind::Unavailable:
    case ErrorKind::Internal:
    case ErrorKind::Unsatisfiable:
      return 1;
    case ErrorKind::OutcomeUnknown:
      return kExitOutcomeUnknown;
  }
  return 1;
}

int cmd_submit(const std::vector<std::string>& args, const std::vector<std::string>& command);
// Until the jobs end (yard wait, yard submit --wait): 0 if all COMPLETED, 1 if not, 3
// after `timeout_s` seconds (0: never), 2 for ids that name no job.
int wait_for_jobs(const std::vector<std::string>& ids, double timeout_s, bool print);
void add_status_commands(CLI::App& app, int& rc);  // status, wait, logs, cancel
void add_server_command(CLI::App& app, int& rc);
void add_run_command(CLI::App& app, int& rc);
void add_flow_command(CLI::App& app, int& rc);  // yard flow check|graph, and:
void add_flows_commands(CLI::App& flow, int& rc);  // yard flow list|status|cancel|follow|report
void add_flow_why_command(CLI::App& flow, int& rc);  // yard flow why
void add_accounts_command(CLI::App& app, int& rc);
void add_routes_command(CLI::App& app, int& rc);  // yard routes: routes.yaml as the daemon read it
void add_watch_command(CLI::App& app, int& rc);  // yard watch: the event stream
void add_slurm_commands_command(CLI::App& app, int& rc);
// Runs `program` (beside yard, or under libexec/switchyard) with argv[1..]: yard web.
int exec_beside(const char* program, int argc, char** argv);  // yard slurm-commands env|path
struct CliTree;
// yard completion bash|zsh (and the build's hidden yard __man DIR).
void add_completion_command(CLI::App& app, CliTree& tree);
// yard --version [--json]: version, commit, build type, compiler, backends and features.
int print_version(bool json);

}  // namespace yard
