#include "server/store_guard.h"

#include <sys/stat.h>
#include <unistd.h>

#include <ctime>

namespace yard {
namespace {

// The -wal and -shm at the path are this connection's, of the store that was there: once
// its pages are copied out, they must not be read as part of whatever file the path holds
// now (SQLite would lay the old pages over it).
void drop_old_wal(const Paths& paths) {
  ::unlink((paths.store + "-wal").c_str());
  ::unlink((paths.store + "-shm").c_str());
}

}  // namespace

StoreRescue rescue_store(const Store& store, const StoreFile& file, StoreFile::Change change, const Paths& paths) {
  StoreRescue r;
  if (change == StoreFile::Change::Deleted) {
    // The whole state directory removed (its lock and log with it) is someone starting
    // afresh on purpose: not undone; the daemon stops.
    struct stat dir{};
    if (::stat(paths.state_dir.c_str(), &dir) != 0) {
      r.told = file.what() + ", with its directory " + paths.state_dir + ": the daemon stops";
      return r;
    }
    Status put_back = store.copy_to(paths.store);
    if (put_back) {
      drop_old_wal(paths);
      r.restored = true;
      r.told = file.what() + "; put the store back from the daemon's open copy (no job lost), and restarting from it";
      return r;
    }
    r.told = file.what() + "; cannot put the store back (" + put_back.error() + "): the daemon stops";
    return r;
  }
  const std::string copy = paths.store + ".held-" + std::to_string(static_cast<long long>(std::time(nullptr)));
  if (auto saved = store.copy_to(copy); saved) {
    drop_old_wal(paths);
    r.told = file.what() + ": the daemon stops; the jobs it held are kept in " + copy;
  } else {
    r.told = file.what() + ": the daemon stops; " + saved.error();
  }
  return r;
}

}  // namespace yard
