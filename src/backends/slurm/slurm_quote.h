// Quoting of user values for the two readers of a Slurm batch script: bash, which runs
// the script, and sbatch, which reads its #SBATCH lines with its own word splitter.
// Both must hand a value through byte for byte and never let it start anything.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace yard {

// A bash word that expands to exactly `value` (any bytes but NUL): single quotes, with
// ' written as '\'' and CR as $'\r', so that the script never holds a "\r\n" (sbatch
// refuses scripts with DOS line breaks). An empty value is ''.
std::string bash_quote(std::string_view value);

// A value for an #SBATCH line, e.g. the X of --partition=X. sbatch splits directive
// lines like a shell (quotes group, a backslash escapes the next character even inside
// quotes, an unquoted # starts a comment, a newline ends the line), so every character
// it treats specially is backslash-escaped rather than quoted. A line cannot carry a
// newline or other control character at all: those values are refused, naming `what`.
Result<std::string> directive_value(std::string_view value, std::string_view what);

// `value` as a quoted, printable excerpt for an error message.
std::string excerpt(std::string_view value, std::size_t max = 80);

}  // namespace yard
