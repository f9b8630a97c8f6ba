// The documentation site's command reference, in Markdown, generated from the same CLI11
// apps as --help, the man pages and the completions (cli_docs.h), so that it never drifts.
#pragma once

#include <string>

#include "cli/cli_tree.h"
#include "core/result.h"

namespace yard {

// index.md (yard itself: its commands, exit status, environment, files) and yard-SUB.md
// for every documented subcommand, into `dir`; and ../settings.md beside it, every key of
// every settings file (core/setting_doc.h and each scheduler's own).
Status write_markdown_reference(const CliTree& tree, const std::string& dir);

}  // namespace yard
