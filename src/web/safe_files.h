// Files of a run and uploads, reached only below their own directory: a path is split into
// names (none empty, "." or ".."), each opened with O_NOFOLLOW from the one before, so
// neither a hostile name nor a symbolic link a job made leads anywhere else.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace yard::web {

struct FileEntry {
  std::string path;  // relative to the directory
  std::int64_t size = 0;
  double mtime = 0;
};

// The regular files below `dir`, recursively (symbolic links skipped), at most `limit`.
std::vector<FileEntry> list_files(const std::string& dir, std::size_t limit = 5000);

// An open descriptor of the regular file `relative` below `dir` (the caller closes it), and
// its size; NotFound for anything else.
struct OpenFile {
  int fd = -1;
  std::int64_t size = 0;
};
Result<OpenFile> open_below(const std::string& dir, const std::string& relative);

// Whether `name` may name an upload: letters, digits, '.', '-', '_', not starting with '.',
// at most 255 bytes.
bool good_upload_name(const std::string& name);

// Writes `bytes` as `dir/name` (made 0700 if missing), whole or not at all.
Status write_upload(const std::string& dir, const std::string& name, const std::string& bytes);

}  // namespace yard::web
