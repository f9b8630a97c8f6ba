// yard completion bash|zsh, the hidden `yard __man DIR` the build runs to write the man
// pages and `yard __markdown DIR` the site's command reference: all from the same CLI11
// apps as --help (cli_docs.h, cli_markdown.h).
#include <iostream>
#include <memory>
#include <tuple>

#include "cli/cli_docs.h"
#include "cli/cli_markdown.h"
#include "cli/commands.h"

namespace yard {

void add_completion_command(CLI::App& app, CliTree& tree) {
  auto* completion = app.add_subcommand(
      "completion", "Print the shell completion script: eval \"$(yard completion bash)\" (or zsh), or install it");
  auto shell = std::make_shared<std::string>();
  completion->add_option("shell", *shell, "bash or zsh")->required();
  completion->callback([&tree, shell] {
    if (*shell == "bash") {
      std::cout << bash_completion(tree);
    } else if (*shell == "zsh") {
      std::cout << zsh_completion(tree);
    } else {
      std::cerr << "yard completion: unsupported shell '" << *shell << "' (supported: bash, zsh)\n";
      tree.rc = kExitBadInput;
    }
  });

  // Hidden (the build's, not a user's): the man pages, and the documentation site's
  // command reference (scripts/docs.sh).
  using Writer = Status (*)(const CliTree&, const std::string&);
  for (const auto& [name, help, write] : {std::tuple<const char*, const char*, Writer>{
                                              "__man", "Write the man pages into DIR", write_man_pages},
                                          {"__markdown", "Write the command reference in Markdown into DIR",
                                           write_markdown_reference}}) {
    auto* cmd = app.add_subcommand(name, help);
    cmd->group("");
    auto dir = std::make_shared<std::string>();
    cmd->add_option("dir", *dir)->required();
    cmd->callback([&tree, dir, cmd_name = std::string(name), writer = write] {
      if (auto s = writer(tree, *dir); !s) {
        std::cerr << "yard " << cmd_name << ": " << s.error() << "\n";
        tree.rc = 1;
      }
    });
  }
}

}  // namespace yard
