#include "client/connection.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/clock.h"

namespace yard {

Result<std::string> exchange_line(const std::string& socket_path, const std::string& line, int timeout_ms) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return err(std::string("socket: ") + std::strerror(errno));
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path.size() >= sizeof addr.sun_path) {
    ::close(fd);
    return err("socket path too long: " + socket_path);
  }
  std::strcpy(addr.sun_path, socket_path.c_str());
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    std::string m = std::strerror(errno);
    ::close(fd);
    return unavailable("cannot reach the daemon at " + socket_path + ": " + m);
  }
  const std::string out = line + "\n";
  for (std::size_t off = 0; off < out.size();) {
    ssize_t n = ::send(fd, out.data() + off, out.size() - off, MSG_NOSIGNAL);
    if (n < 0) {
      ::close(fd);
      return unavailable(std::string("sending to the daemon: ") + std::strerror(errno));
    }
    off += static_cast<std::size_t>(n);
  }
  std::string in;
  char buf[65536];
  const double deadline = monotonic_now() + timeout_ms / 1000.0;
  while (in.find('\n') == std::string::npos) {
    const int left_ms = static_cast<int>((deadline - monotonic_now()) * 1000);
    if (left_ms <= 0) {
      ::close(fd);
      return unavailable("the daemon did not answer within " + std::to_string(timeout_ms / 1000) + " s");
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, left_ms) <= 0) continue;
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) {
      ::close(fd);
      return unavailable("the daemon closed the connection without answering");
    }
    in.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return in.substr(0, in.find('\n'));
}

}  // namespace yard
