// Small string helpers shared by the parsers of user input and scheduler output, and the
// escaping of text that came from users before it is shown: job names, reasons, paths
// and arguments are bytes on Linux, while terminals obey control characters and JSON
// holds only Unicode text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace yard {

std::string_view trim(std::string_view s);
std::vector<std::string_view> split(std::string_view s, char sep);
bool iequals(std::string_view a, std::string_view b);
bool starts_with(std::string_view s, std::string_view prefix);
std::string to_lower(std::string_view s);
// `s` with spaces before (pad_left) or after (pad_right) it up to `width` bytes; never cut.
std::string pad_left(std::string_view s, std::size_t width);
std::string pad_right(std::string_view s, std::size_t width);

// UTF-8 as RFC 3629 defines it: no overlong forms, no surrogates, nothing above U+10FFFF.
bool is_valid_utf8(std::string_view s);
// `s` with every byte that is not part of a valid UTF-8 character written as the four
// characters \xNN (lower-case hex); valid text is unchanged. What JSON output shows
// for bytes it cannot hold.
std::string escape_invalid_utf8(std::string_view s);
// For a terminal: as escape_invalid_utf8, and control characters written as escapes
// too, so that a job name cannot move the cursor, recolour the screen or start a new
// line: C0 and DEL as \xNN (ESC is \x1b), C1 (such as U+009B, a one-character ESC [)
// as \u0080 to \u009f. A backslash is left as it is, so the result can be ambiguous
// (a name that is the text "\x1b" looks the same); it is for reading, not parsing.
std::string escape_for_terminal(std::string_view s);
// A table cell: escape_for_terminal(s) cut to at most `width` characters, padded with
// spaces to `width`. Cuts fall between characters, never inside a UTF-8 character or
// an escape. Characters are code points; wide (CJK) characters count as one.
std::string terminal_cell(std::string_view s, std::size_t width);

}  // namespace yard
