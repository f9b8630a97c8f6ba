// Reading a whole file: the one way the code base does it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/result.h"

namespace yard {

// The most any input file may hold (a batch script, a run file, a description, a
// configuration): the size of the largest request the daemon takes, so that a file the
// daemon would refuse is refused here first, before it is read.
constexpr std::size_t kMaxInputFileBytes = 64u << 20;

// The file's bytes, whatever they are; an error naming the file and the system's reason
// (missing, unreadable, a directory). Only a regular file is read: a FIFO, a device or a
// socket is refused naming its type (reading /dev/zero would never end, and opening a
// FIFO would wait for a writer), and so is a file over `max_bytes`, before it is read.
// These are bad input (ErrorKind::Invalid).
Result<std::string> read_file(const std::string& path, std::size_t max_bytes = kMaxInputFileBytes);

// The file's bytes, or "" if it cannot be read (for files that may rightly be absent:
// /proc and /sys entries, a record not written yet).
std::string read_file_or_empty(const std::string& path);

// Writes `text` to `path` (created with `mode`, or truncated), through a descriptor that is
// close-on-exec: a command another thread starts meanwhile must not keep the file open
// for writing (a script so held cannot be run: "Text file busy"). An error names the file.
Status write_whole_file(const std::string& path, std::string_view text, unsigned mode = 0600);

// "a FIFO", "a character device", ...: what a file of mode `st_mode` is, for messages.
const char* file_type_name(unsigned st_mode);

// "66.8 MiB", "512 bytes": a size for a message.
std::string readable_size(std::size_t bytes);

}  // namespace yard
