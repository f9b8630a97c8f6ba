// Quoting of user values for bash, which runs every batch script yard writes, whatever
// the scheduler, and excerpts of values for error messages. A value must reach the job
// byte for byte and never let the shell start anything.
#pragma once

#include <string>
#include <string_view>

namespace yard {

// A bash word that expands to exactly `value` (any bytes but NUL): single quotes, with
// ' written as '\'' and CR as $'\r', so that the script never holds a "\r\n" (sbatch
// refuses scripts with DOS line breaks). An empty value is ''.
std::string bash_quote(std::string_view value);

// `value` as a quoted, printable excerpt for an error message.
std::string excerpt(std::string_view value, std::size_t max = 80);

}  // namespace yard
