// Man pages and shell completions generated from the CLI11 apps of cli_tree.h: every
// option is documented where it is declared, once.
#pragma once

#include <string>
#include <vector>

#include "cli/cli_tree.h"
#include "core/result.h"

namespace yard {

// One option as documented: its names with their dashes ("-n", "--ntasks"), whether it
// takes a value and the value's kind ("INT", "TEXT"), its help text.
struct OptionDoc {
  std::vector<std::string> names;
  bool takes_value = false;
  std::string value_name;
  std::string description;
};
std::vector<OptionDoc> option_docs(const CLI::App& app);
// A subcommand's first line of help: its one-line summary (man pages, the reference).
std::string summary(const CLI::App& app);
// The subcommands of `app` that are documented (hidden ones have an empty group).
std::vector<const CLI::App*> visible_subcommands(const CLI::App& app);

// What yard(1) and the reference say of the exit statuses, the environment and the files
// (YARD_PATIENCE's meaning; the store's file, `config` false, or the configuration
// directory's; both, in one line).
std::string exit_status_text();
std::string environment_text();
std::string files_text(bool config);
std::string files_text();

// yard(1) (`sub` null) or yard-SUB(1), in roff.
std::string man_page(const CliTree& tree, const CLI::App* sub);
// `text` into the file at `path`, or an error naming it.
Status write_text_file(const std::string& path, const std::string& text);
// yard.1 and yard-SUB.1 for every subcommand, into `dir`.
Status write_man_pages(const CliTree& tree, const std::string& dir);

// The completion script for `shell` ("bash" or "zsh").
std::string bash_completion(const CliTree& tree);
std::string zsh_completion(const CliTree& tree);

}  // namespace yard
