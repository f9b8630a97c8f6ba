// The store's file as the daemon holds it open. SQLite writes on into a file that was
// deleted, renamed away or replaced at its path: every job acknowledged after that would
// be gone at the next start, and ids would start again at 1 (truncating old jobs' output
// files). The daemon asks `change()` after each commit, before it answers anyone, and a
// store that is no longer at its path is copied out of the open connection
// (`copy_to`), so that nothing it acknowledged is lost.
#pragma once

#include <sys/types.h>

#include <string>

#include "core/result.h"

namespace yard {

class StoreFile {
 public:
  enum class Change { None, Deleted, Replaced };

  StoreFile() = default;
  // Records the file now at `path` (and its -wal once it exists).
  explicit StoreFile(std::string path);

  // Whether the files at the path are still those first seen (two stat calls).
  Change change();
  // A sentence for the log and for the replies: what happened to which file.
  const std::string& what() const { return what_; }
  const std::string& path() const { return path_; }

 private:
  struct Id {
    dev_t dev = 0;
    ino_t ino = 0;
    bool known = false;
  };
  Change check(const std::string& path, Id& id, bool may_appear);
  std::string path_, what_;
  Id db_, wal_;
};

}  // namespace yard
