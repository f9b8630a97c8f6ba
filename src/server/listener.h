// The daemon's listening socket: bound in the user's 0700 runtime directory, accepting
// only the owner's connections (SO_PEERCRED), one JSON line each way; and re-created if
// someone removes its file or its directory (a CLI that cannot connect would otherwise
// think no daemon runs, while this one holds the lock).
#pragma once

#include <string>
#include <string_view>
#include <vector>


#include "core/result.h"

namespace yard {

class Listener {
 public:
  // Binds `path` (an old socket file there is a dead daemon's: we hold the lock).
  static Result<Listener> open(const std::string& path);
  Listener(Listener&& o) noexcept;
  Listener& operator=(Listener&&) = delete;
  Listener(const Listener&) = delete;
  ~Listener();

  int fd() const { return fd_; }
  // Readable when the socket's directory changed (see check_socket()).
  int watch_fd() const { return inotify_; }
  // Connections of the owner waiting to be accepted; others are closed unanswered.
  std::vector<int> accept_owner_clients();
  // After watch_fd() was readable: binds the socket again if its file is gone or is no
  // longer ours, making its directory again if that went too. Returns what it did, for
  // the log ("" if nothing).
  std::string check_socket();
  // False after check_socket() could not listen again: the daemon then asks it again
  // every second (no event may ever come: the watched directory is gone).
  bool healthy() const { return healthy_; }
  // Stops listening and removes the socket file (a stop, not a restart).
  void close_and_unlink();

 private:
  Listener(std::string path, int fd, int inotify) : path_(std::move(path)), fd_(fd), inotify_(inotify) {}
  std::string path_;
  int fd_ = -1, inotify_ = -1;
  unsigned long inode_ = 0;
  bool healthy_ = true;
};

// Writes `text` to `fd`, waiting for the client to read it until `deadline` (monotonic
// seconds, core/clock.h) at most: a client that does not read is not waited for longer,
// and one that went away is not an error. Whether all of it was written.
bool send_until(int fd, std::string_view text, double deadline);

}  // namespace yard
