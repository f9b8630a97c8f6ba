#include "cli/cli_docs.h"

#include <gtest/gtest.h>

#include <set>

namespace yard {
namespace {

// Every option a command's parser knows is in its man page and its completion: they are
// generated from the parser's own tables.
TEST(CliDocs, EveryOptionOfEveryCommandIsInItsManPageAndTheCompletions) {
  auto tree = make_cli_tree();
  const std::string bash = bash_completion(*tree), zsh = zsh_completion(*tree);
  const auto subs = visible_subcommands(*tree->app);
  ASSERT_GE(subs.size(), 8u);
  for (const auto* sub : subs) {
    const std::string page = man_page(*tree, sub);
    EXPECT_NE(page.find(".TH \"YARD-" + [&] {
      std::string u = sub->get_name();
      for (auto& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return u;
    }() + "\" \"1\""), std::string::npos) << sub->get_name();
    EXPECT_NE(bash.find("'" + sub->get_name() + "')"), std::string::npos) << sub->get_name();
    for (const auto& o : option_docs(documented(*tree, *sub)))
      for (const auto& n : o.names) {
        std::string in_roff;
        for (char c : n) in_roff += c == '-' ? std::string("\\-") : std::string(1, c);
        EXPECT_NE(page.find("\\fB" + in_roff + "\\fR"), std::string::npos) << "yard-" << sub->get_name() << "(1) lacks " << n;
        EXPECT_NE(bash.find(n), std::string::npos) << n;
        EXPECT_NE(zsh.find("'" + n + "["), std::string::npos) << n;
      }
  }
  // submit's flags are those of its own parser, not of the placeholder main() dispatches.
  const std::string submit_page = man_page(*tree, tree->app->get_subcommand("submit"));
  EXPECT_NE(submit_page.find("\\-\\-mem\\-per\\-cpu"), std::string::npos);
  EXPECT_NE(submit_page.find("\\-\\-dependency"), std::string::npos);
}

TEST(CliDocs, TheMainPageListsEveryCommandAndNotTheHiddenOne) {
  auto tree = make_cli_tree();
  const std::string page = man_page(*tree, nullptr);
  for (const auto* sub : visible_subcommands(*tree->app)) {
    std::string name;  // as roff writes it: each '-' escaped (slurm\-commands)
    for (char c : sub->get_name()) name += c == '-' ? std::string("\\-") : std::string(1, c);
    EXPECT_NE(page.find("yard\\-" + name + "\\fR(1)"), std::string::npos) << sub->get_name();
  }
  EXPECT_EQ(page.find("__man"), std::string::npos);
  EXPECT_NE(page.find("\\-\\-version"), std::string::npos);
}

TEST(CliDocs, RoffControlCharactersInHelpTextAreEscaped) {
  CliTree tree;
  tree.app = std::make_unique<CLI::App>("top", "yard");
  auto* sub = tree.app->add_subcommand("x", ".starts with a dot\\and a backslash");
  tree.submit = std::make_unique<CLI::App>("s", "s");
  const std::string page = man_page(tree, sub);
  EXPECT_NE(page.find("\\&.starts with a dot\\eand a backslash"), std::string::npos) << page;
}

}  // namespace
}  // namespace yard
