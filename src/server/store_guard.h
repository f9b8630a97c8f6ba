// What the daemon does when its store is no longer at its path (store/store_file.h): it
// never acknowledges into a file that no one will read again.
//  - Deleted (or renamed away), the store or its -wal: the open connection still holds
//    every job, so the store is written back to its path, and the daemon answers, then
//    restarts from it as after a crash. The whole state directory removed is a wish to
//    start afresh: the daemon stops.
//  - Replaced by another file: that file is someone's, and is left alone; what the
//    daemon held is copied beside it, the requests of the iteration are refused, and the
//    daemon stops.
#pragma once

#include <string>

#include "client/paths.h"
#include "store/store.h"
#include "store/store_file.h"

namespace yard {

struct StoreRescue {
  bool restored = false;  // the store is back at its path, whole
  std::string told;       // what happened and what was done, for the log and the replies
};

StoreRescue rescue_store(const Store& store, const StoreFile& file, StoreFile::Change change, const Paths& paths);

}  // namespace yard
