#include "server/listener.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/clock.h"

namespace yard {
namespace {

Result<int> bind_socket(const std::string& path, unsigned long& inode) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path)
    return err("socket path " + path + " is " + std::to_string(path.size()) + " bytes long; Unix sockets allow at most " +
               std::to_string(sizeof addr.sun_path - 1) + " (set XDG_RUNTIME_DIR to a shorter directory)");
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return err(std::string("socket: ") + std::strerror(errno));
  std::strcpy(addr.sun_path, path.c_str());
  ::unlink(path.c_str());
  struct stat st{};
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::chmod(path.c_str(), 0600) != 0 ||
      ::listen(fd, 512) != 0 || ::stat(path.c_str(), &st) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    return err("cannot listen on " + path + ": " + why);
  }
  inode = st.st_ino;
  return fd;
}

// Removal or replacement of the socket file shows as an event on its directory; removal
// of the directory itself (logind removes /run/user/UID at the last logout, a tmp
// cleaner /tmp/switchyard-UID) as one on the directory.
bool watch_directory(int inotify, const std::string& dir) {
  return ::inotify_add_watch(inotify, dir.c_str(),
                             IN_DELETE | IN_MOVED_FROM | IN_CREATE | IN_DELETE_SELF | IN_MOVE_SELF) >= 0;
}

// Makes the socket's directory again, private, as paths.cpp's ensure_dirs does.
std::string recreate_directory(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(dir).parent_path(), ec);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    return "cannot create the runtime directory " + dir + " again: " + std::strerror(errno);
  struct stat st{};
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return dir + " is not a directory";
  if (st.st_uid != ::getuid()) return dir + " belongs to another user; refusing to use it";
  if ((st.st_mode & 077) != 0 && ::chmod(dir.c_str(), 0700) != 0) return "cannot make " + dir + " private (0700)";
  return "";
}

}  // namespace

Result<Listener> Listener::open(const std::string& path) {
  unsigned long inode = 0;
  auto fd = bind_socket(path, inode);
  if (!fd) return fd.failure();
  int in = ::inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
  if (in >= 0 && !watch_directory(in, std::filesystem::path(path).parent_path().string())) {
    ::close(in);
    in = -1;
  }
  Listener l(path, *fd, in);
  l.inode_ = inode;
  return l;
}

Listener::Listener(Listener&& o) noexcept
    : path_(std::move(o.path_)), fd_(o.fd_), inotify_(o.inotify_), inode_(o.inode_), healthy_(o.healthy_) {
  o.fd_ = o.inotify_ = -1;
}

Listener::~Listener() {
  if (fd_ >= 0) ::close(fd_);
  if (inotify_ >= 0) ::close(inotify_);
}

std::vector<int> Listener::accept_owner_clients() {
  std::vector<int> out;
  for (;;) {
    int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (c < 0) break;
    ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != ::getuid()) {
      ::close(c);  // not the owner: no word, no access
      continue;
    }
    out.push_back(c);
  }
  return out;
}

std::string Listener::check_socket() {
  char buf[4096];
  while (::read(inotify_, buf, sizeof buf) > 0) {
  }
  struct stat st{};
  if (::stat(path_.c_str(), &st) == 0 && st.st_ino == inode_ && S_ISSOCK(st.st_mode)) return "";
  const std::string dir = std::filesystem::path(path_).parent_path().string();
  std::string what = "the socket " + path_ + " was removed or replaced";
  if (::stat(dir.c_str(), &st) != 0) {
    // The directory went with it, and the watch on it: both are made again.
    if (auto problem = recreate_directory(dir); !problem.empty()) {
      healthy_ = false;
      return "the runtime directory " + dir + " was removed; " + problem;
    }
    what = "the runtime directory " + dir + " was removed; made it again (0700)";
    if (inotify_ >= 0 && !watch_directory(inotify_, dir))
      what += " (but cannot watch it: " + std::string(std::strerror(errno)) + ")";
  }
  unsigned long inode = 0;
  auto fd = bind_socket(path_, inode);
  healthy_ = fd.ok();
  if (!fd) return fd.error();
  ::close(fd_);
  fd_ = *fd;
  inode_ = inode;
  return what + "; listening on " + path_ + " again";
}

void Listener::close_and_unlink() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  struct stat st{};
  if (::stat(path_.c_str(), &st) == 0 && st.st_ino == inode_) ::unlink(path_.c_str());
}

bool send_until(int fd, std::string_view text, double deadline) {
  for (std::size_t off = 0; off < text.size();) {
    const ssize_t n = ::send(fd, text.data() + off, text.size() - off, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      off += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 || errno != EAGAIN) return false;
    const double left = deadline - monotonic_now();
    if (left <= 0) return false;
    pollfd p{fd, POLLOUT, 0};
    ::poll(&p, 1, static_cast<int>(left * 1000) + 1);
  }
  return true;
}

}  // namespace yard
