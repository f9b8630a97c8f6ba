// `yard translate --to KIND [--from KIND] [--strict] [--json] [-o FILE] SCRIPT`: a batch
// script written for one scheduler, said in another's directives (src/translate/).
#pragma once

#include <CLI/CLI.hpp>

namespace yard {

// Adds the subcommand; its exit status goes to `rc`: 0, 1 (the output file could not be
// written) or 2 (a bad script, or with --strict something the target cannot say).
void add_translate_command(CLI::App& app, int& rc);

}  // namespace yard
