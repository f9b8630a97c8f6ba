// Reading a whole file: the one way the code base does it.
#pragma once

#include <string>

#include "core/result.h"

namespace yard {

// The file's bytes, whatever they are; an error naming the file and the system's reason
// (missing, unreadable, a directory).
Result<std::string> read_file(const std::string& path);

// The file's bytes, or "" if it cannot be read (for files that may rightly be absent:
// /proc and /sys entries, a record not written yet).
std::string read_file_or_empty(const std::string& path);

}  // namespace yard
