// yard completion bash|zsh, the hidden `yard __man DIR` the build runs to write the man
// pages and `yard __markdown DIR` the site's command reference: all from the same CLI11
// apps as --help (cli_docs.h, cli_markdown.h).
#include <iostream>
#include <memory>

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

  auto* man = app.add_subcommand("__man", "Write the man pages into DIR");
  man->group("");  // hidden: the build's, not a user's
  auto dir = std::make_shared<std::string>();
  man->add_option("dir", *dir)->required();
  man->callback([&tree, dir] {
    if (auto s = write_man_pages(tree, *dir); !s) {
      std::cerr << "yard __man: " << s.error() << "\n";
      tree.rc = 1;
    }
  });

  // The documentation site's command reference (scripts/docs.sh): hidden as __man is.
  auto* markdown = app.add_subcommand("__markdown", "Write the command reference in Markdown into DIR");
  markdown->group("");
  auto md_dir = std::make_shared<std::string>();
  markdown->add_option("dir", *md_dir)->required();
  markdown->callback([&tree, md_dir] {
    if (auto s = write_markdown_reference(tree, *md_dir); !s) {
      std::cerr << "yard __markdown: " << s.error() << "\n";
      tree.rc = 1;
    }
  });
}

}  // namespace yard
