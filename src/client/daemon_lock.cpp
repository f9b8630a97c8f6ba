#include "client/daemon_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace yard {

Result<int> take_daemon_lock(const std::string& path) {
  int fd = ::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) return unavailable("cannot open " + path + ": " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return Error{"another daemon already serves this state directory (it holds " + path + ")", ErrorKind::Conflict};
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  // Best effort: a full disk must not stop the daemon that could free it; without the
  // pid, only a daemon whose socket is also gone cannot be found.
  if (::ftruncate(fd, 0) == 0) (void)!::pwrite(fd, pid.data(), pid.size(), 0);
  return fd;
}

std::optional<pid_t> daemon_lock_holder(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::optional<pid_t> holder;
  if (::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    char buf[32] = {};
    const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
    const long pid = n > 0 ? std::strtol(buf, nullptr, 10) : 0;
    if (pid > 0) holder = static_cast<pid_t>(pid);
  }
  ::close(fd);
  return holder;
}

}  // namespace yard
