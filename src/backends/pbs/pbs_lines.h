// How qsub reads the lines of a script for its directives: which are #PBS lines, and
// which line ends them (pbs_directives.cpp).
#pragma once

#include <optional>
#include <string_view>

namespace yard {

// The text after "#PBS" when the line is a directive: "#PBS" after blanks, then a blank,
// a '-' or the end of the line.
std::optional<std::string_view> pbs_directive_text(std::string_view line);

// qsub's end of the directives: a line that is not blank and not a comment (a line
// starting with ':' is not a command either).
bool pbs_is_command(std::string_view line);

}  // namespace yard
