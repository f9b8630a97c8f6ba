#include "client/connection.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/clock.h"

namespace yard {
namespace {

using Outcome = Exchange::Outcome;

// Closes its descriptor whatever way the exchange ends.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// How the connection stands once what has arrived is read.
enum class Peer { Open, Closed, Reset };

// Reads what has arrived up to the first '\n' into `line` ("" when there is no whole
// line yet). Reset: the daemon's end went away with our request still unread in its
// socket, or before it accepted the connection (Linux reports ECONNRESET then, and EOF
// when the daemon had read everything): it cannot have acted on the request.
Peer read_line(int fd, std::string& in, std::string& line) {
  char buf[65536];
  Peer peer = Peer::Open;
  for (;;) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n > 0) {
      in.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) peer = Peer::Closed;
    else if (errno == ECONNRESET) peer = Peer::Reset;
    else if (errno != EAGAIN && errno != EINTR) peer = Peer::Closed;
    break;
  }
  const auto nl = in.find('\n');
  line = nl == std::string::npos ? "" : in.substr(0, nl);
  return peer;
}

}  // namespace

Exchange exchange(const std::string& socket_path, const std::string& line,
                  const std::function<bool(double waited_s)>& keep_waiting) {
  Fd s{::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)};
  if (s.fd < 0) return {Outcome::NotDelivered, std::string("socket: ") + std::strerror(errno)};
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path.size() >= sizeof addr.sun_path) return {Outcome::NotDelivered, "socket path too long: " + socket_path};
  std::strcpy(addr.sun_path, socket_path.c_str());
  // A Unix socket connects at once or not at all (a full backlog is EAGAIN: not delivered).
  if (::connect(s.fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    return {Outcome::NotDelivered, "cannot reach the daemon at " + socket_path + ": " + std::strerror(errno)};

  const std::string out = line + "\n";
  std::string in;
  std::size_t off = 0;
  double last_progress = monotonic_now();
  double waited = 0;  // seconds without progress, counted in whole seconds asked about
  // The first send is tried at once: a connected socket has room for a request line,
  // which is then in the daemon's socket when it accepts the connection (it reads it in
  // the same pass: one turn of its loop per request instead of two).
  bool first = true;
  while (true) {
    const bool sending = off < out.size();
    pollfd p{s.fd, static_cast<short>(sending ? POLLOUT | POLLIN : POLLIN), 0};
    int ready = 1;
    if (first) p.revents = POLLOUT;
    else ready = ::poll(&p, 1, 1000);
    first = false;
    if (ready < 0 && errno != EINTR) return {sending ? Outcome::NotDelivered : Outcome::NoReply, std::strerror(errno)};
    if (ready > 0 && (p.revents & POLLOUT) && sending) {
      const ssize_t n = ::send(s.fd, out.data() + off, out.size() - off, MSG_NOSIGNAL);
      if (n < 0 && errno != EAGAIN && errno != EINTR) {
        // The daemon closed the connection before the whole line came: it cannot have
        // acted on it; it may have said why first.
        const std::string why = std::strerror(errno);
        std::string reply;
        (void)read_line(s.fd, in, reply);
        if (!reply.empty()) return {Outcome::Replied, reply};
        return {Outcome::NotDelivered, "sending to the daemon: " + why};
      }
      if (n > 0) off += static_cast<std::size_t>(n), last_progress = monotonic_now(), waited = 0;
      continue;
    }
    if (ready > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR))) {
      std::string reply;
      const Peer peer = read_line(s.fd, in, reply);
      if (!reply.empty()) return {Outcome::Replied, reply};
      if (peer == Peer::Reset || (peer == Peer::Closed && sending))
        return {Outcome::NotDelivered, "the daemon went away before it read the request"};
      if (peer == Peer::Closed) return {Outcome::NoReply, "the daemon closed the connection without answering"};
      last_progress = monotonic_now(), waited = 0;
      continue;
    }
    const double silent = monotonic_now() - last_progress;
    if (silent >= waited + 1) {
      waited = silent;
      if (!keep_waiting(waited)) {
        if (sending) return {Outcome::NotDelivered, "the daemon did not take the request"};
        return {Outcome::NoReply, "the daemon did not answer"};
      }
    }
  }
}

Result<std::string> exchange_line(const std::string& socket_path, const std::string& line, int timeout_ms) {
  auto x = exchange(socket_path, line, [timeout_ms](double waited_s) { return waited_s * 1000 < timeout_ms; });
  if (x.outcome == Outcome::Replied) return x.text;
  if (x.text == "the daemon did not answer")
    return unavailable("the daemon did not answer within " + std::to_string(timeout_ms / 1000) + " s");
  return unavailable(x.text);
}

}  // namespace yard

namespace yard {

Result<LineStream> LineStream::open(const std::string& socket_path, const std::string& line) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return unavailable(std::string("socket: ") + std::strerror(errno));
  LineStream s(fd);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path.size() >= sizeof addr.sun_path) return unavailable("socket path too long: " + socket_path);
  std::strcpy(addr.sun_path, socket_path.c_str());
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    return unavailable("cannot reach the daemon at " + socket_path + ": " + std::strerror(errno));
  const std::string out = line + "\n";
  for (std::size_t off = 0; off < out.size();) {
    const ssize_t n = ::send(fd, out.data() + off, out.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return unavailable(std::string("sending to the daemon: ") + std::strerror(errno));
    off += static_cast<std::size_t>(n);
  }
  return s;
}

LineStream::~LineStream() {
  if (fd_ >= 0) ::close(fd_);
}

LineStream::Got LineStream::next(std::string& line, int timeout_ms) {
  const double deadline = timeout_ms < 0 ? 0 : monotonic_now() + timeout_ms / 1000.0;
  for (;;) {
    if (const auto nl = in_.find('\n', pos_); nl != std::string::npos) {
      line.assign(in_, pos_, nl - pos_);
      pos_ = nl + 1;
      return Got::Line;
    }
    in_.erase(0, pos_);  // only the start of a line is left: keep it, drop what was read
    pos_ = 0;
    int wait_ms = -1;
    if (timeout_ms >= 0) {
      wait_ms = static_cast<int>((deadline - monotonic_now()) * 1000);
      if (wait_ms <= 0) return Got::Timeout;
    }
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready < 0 && errno != EINTR) return Got::Closed;
    if (ready <= 0) continue;
    char buf[65536];
    const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Got::Closed;
    in_.append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace yard
