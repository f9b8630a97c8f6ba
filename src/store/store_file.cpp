#include "store/store_file.h"

#include <sys/stat.h>

#include <cerrno>

namespace yard {

StoreFile::StoreFile(std::string path) : path_(std::move(path)) {
  (void)check(path_, db_, true);
  (void)check(path_ + "-wal", wal_, true);
}

StoreFile::Change StoreFile::check(const std::string& path, Id& id, bool may_appear) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) {
    if (!id.known) return Change::None;  // not there yet (a -wal before the first read)
    if (errno != ENOENT && errno != ENOTDIR) return Change::None;  // cannot tell: not a change
    what_ = path + " was deleted (or renamed away) while the daemon ran";
    return Change::Deleted;
  }
  if (!id.known) {
    if (!may_appear) return Change::None;
    id = {st.st_dev, st.st_ino, true};
    return Change::None;
  }
  if (st.st_dev == id.dev && st.st_ino == id.ino) return Change::None;
  what_ = path + " was replaced by another file while the daemon ran";
  return Change::Replaced;
}

StoreFile::Change StoreFile::change() {
  if (path_.empty()) return Change::None;
  if (auto c = check(path_, db_, false); c != Change::None) return c;
  // SQLite keeps its -wal for as long as the connection is open: one that vanished took
  // the last commits with it.
  return check(path_ + "-wal", wal_, true);
}

}  // namespace yard
