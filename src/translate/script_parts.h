// A script as a translation keeps it: its #! line, the lines of its directive block that
// are not directives, and its body, every line after the block, byte for byte. The block
// ends at the first command (in a language whose group of directives may follow commands,
// it ends after the group). Directive lines of every kind yard reads are dropped from it,
// with the lines a trailing backslash continues; the target's directives go where the
// first of them was, or before the first command when that comes earlier (sbatch and most
// other readers stop reading there).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "jobtext/script_language.h"

namespace yard::translate {

struct ScriptParts {
  std::string shebang;       // "#!/bin/bash\n", or ""
  std::string before;        // the block's lines kept before the target's directives
  std::string after;         // and after them
  std::string body;          // every line after the block, exactly
  // Lines of the body that are directives of the source's language, for one whose reader
  // reads them anywhere in the script: left as they are.
  std::vector<int> body_directives;
};

// `source`: the language the script was read as (null for none); `languages`: every
// language, whose directive lines are all dropped from the block.
ScriptParts split_script(const ScriptLanguages& languages, std::string_view script, const ScriptLanguage* source);

// The script for `target`: the #! line, the kept header, `directives`, the body.
std::string assemble(const ScriptParts& parts, const std::string& directives, const ScriptLanguage& target);

// Whether `line` is a directive of any of `languages`.
bool is_any_directive_line(const ScriptLanguages& languages, std::string_view line);

// The lines of the body (numbered in the script) that `target` would read as directives
// too: some readers read them anywhere, one refuses a sentinel line after the group of
// directives, and one reads on past lines starting with ':'.
std::vector<int> read_in_body(const ScriptParts& parts, std::string_view script, const ScriptLanguage& target);

}  // namespace yard::translate
