// yard: one job interface for every scheduler, and a scheduler of its own.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/cli_tree.h"
#include "cli/commands.h"

int main(int argc, char** argv) {
  if (argc > 1 && (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "-V") == 0)) {
    const bool json = argc == 3 && std::strcmp(argv[2], "--json") == 0;
    if (argc > 3 || (argc == 3 && !json)) {
      std::cerr << "yard --version: the only option is --json\n";
      return yard::kExitBadInput;
    }
    return yard::print_version(json);
  }
  // `yard submit` re-parses its flags after reading a script's #SBATCH lines, and takes
  // a command after `--`: it is dispatched before CLI11 sees it.
  if (argc > 1 && std::strcmp(argv[1], "submit") == 0) {
    std::vector<std::string> args, command;
    bool after = false;
    for (int i = 2; i < argc; ++i) {
      if (!after && std::strcmp(argv[i], "--") == 0) {
        after = true;
        continue;
      }
      (after ? command : args).push_back(argv[i]);
    }
    if (after && command.empty()) {
      std::cerr << "yard submit: nothing after --\n";
      return yard::kExitBadInput;
    }
    return yard::cmd_submit(args, command);
  }

  // `yard web ...` is yard-web's (src/web/: an HTTP service with libraries of its own that
  // yard does not load), found beside yard in a build tree or under libexec once installed.
  if (argc > 1 && std::strcmp(argv[1], "web") == 0) return yard::exec_beside("yard-web", argc - 1, argv + 1);

  auto tree = yard::make_cli_tree();
  CLI::App& app = *tree->app;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return yard::kExitBadInput;
  }
  return tree->rc;
}
