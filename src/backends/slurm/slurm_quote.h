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
// lines with quotes that group (inside them a backslash escapes the next character; a
// blank outside them ends the word even after a backslash), an unquoted # starting a
// comment and a newline ending the line: a value of other than plain characters is
// written in double quotes, its backslashes and double quotes escaped. A line cannot
// carry a newline or other control character at all: those values are refused, naming
// `what`.
Result<std::string> directive_value(std::string_view value, std::string_view what);

}  // namespace yard
