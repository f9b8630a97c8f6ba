// Quoting of user values for sbatch, which reads a batch script's #SBATCH lines with its
// own word splitter (bash's quoting is in backends/shell_quote.h). A value must reach
// Slurm byte for byte and never let it start anything.
#pragma once

#include <string>
#include <string_view>

#include "core/shell_quote.h"
#include "core/result.h"

namespace yard {

// A value for an #SBATCH line, e.g. the X of --partition=X. sbatch splits directive
// lines like a shell (quotes group, a backslash escapes the next character even inside
// quotes, an unquoted # starts a comment, a newline ends the line), so every character
// it treats specially is backslash-escaped rather than quoted. A line cannot carry a
// newline or other control character at all: those values are refused, naming `what`.
Result<std::string> directive_value(std::string_view value, std::string_view what);

}  // namespace yard
