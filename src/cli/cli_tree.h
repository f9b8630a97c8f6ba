// The whole command line of `yard` as CLI11 apps: what main() parses, and what the man
// pages and shell completions are generated from (man_pages.h, completion.h), so that
// they never drift from --help.
#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "jobtext/submit_options.h"

namespace yard {

struct CliTree {
  std::unique_ptr<CLI::App> app;
  // `yard submit`'s flags: main() hands submit to its own parser (cmd_submit), which
  // declares the same flags (submit_flags.cpp); here for the man page and completion.
  std::unique_ptr<CLI::App> submit;
  SubmitFlags submit_flags;
  bool submit_json = false;
  bool version = false;
  int rc = 0;  // what the chosen subcommand's callback returns
};

std::unique_ptr<CliTree> make_cli_tree();

// The options of subcommand `sub` as documented: submit's from `tree.submit`.
const CLI::App& documented(const CliTree& tree, const CLI::App& sub);

}  // namespace yard
