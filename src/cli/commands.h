// The `yard` subcommands. Each returns the process exit status: 0 success, 1 a job or
// the daemon failed, 2 bad input (nothing was changed).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace yard {

constexpr int kExitBadInput = 2;

int cmd_submit(const std::vector<std::string>& args, const std::vector<std::string>& command);
void add_status_commands(CLI::App& app, int& rc);  // status, wait, logs, cancel
void add_server_command(CLI::App& app, int& rc);
void add_run_command(CLI::App& app, int& rc);
void add_accounts_command(CLI::App& app, int& rc);

}  // namespace yard
