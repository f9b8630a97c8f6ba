#include "server/connections.h"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "protocol/messages.h"
#include "server/listener.h"

namespace yard {

Connections::Connections() : epoll_fd_(::epoll_create1(EPOLL_CLOEXEC)) {}

Connections::~Connections() {
  for (auto& [fd, c] : conns_) ::close(fd);
  if (epoll_fd_ >= 0) ::close(epoll_fd_);
}

void Connections::add(int fd) {
  if (epoll_fd_ < 0) {
    ::close(fd);
    return;
  }
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = fd;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
    ::close(fd);  // (only with the kernel's memory exhausted) the client sees its connection close
    return;
  }
  conns_[fd];
}

std::vector<std::pair<int, short>> Connections::ready_now() const {
  // One call, room for every connection: level-triggered, a second call would return the
  // same ones again (and never end while they stay ready).
  std::vector<epoll_event> events(std::max<std::size_t>(conns_.size(), 1));
  const int n = ::epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()), 0);
  std::vector<std::pair<int, short>> out;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t e = events[i].events;
    short r = 0;
    if (e & EPOLLIN) r |= POLLIN;
    if (e & EPOLLOUT) r |= POLLOUT;
    if (e & EPOLLHUP) r |= POLLHUP;
    if (e & EPOLLERR) r |= POLLERR;
    const int fd = events[i].data.fd;  // (a packed field: copied, not bound)
    out.emplace_back(fd, r);
  }
  return out;
}

void Connections::want_out(int fd, Conn& c) {
  const bool waiting = c.sent < c.tried;
  if (waiting == c.watching_out) return;
  epoll_event ev{};
  ev.events = EPOLLIN | (waiting ? EPOLLOUT : 0u);
  ev.data.fd = fd;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, fd, &ev) == 0) c.watching_out = waiting;
}

bool Connections::flush(int fd, Conn& c) {
  c.tried = c.out.size();
  while (c.sent < c.out.size()) {
    const ssize_t n = ::send(fd, c.out.data() + c.sent, c.out.size() - c.sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      c.sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) break;
    return false;
  }
  if (c.sent == c.out.size()) {
    c.out.clear();
    c.sent = c.tried = 0;
  } else if (c.sent > (1u << 20)) {  // keep the buffer from only growing at its front
    c.out.erase(0, c.sent);
    c.tried -= c.sent;
    c.sent = 0;
  }
  want_out(fd, c);
  return true;
}

Connections::Ready Connections::ready(int fd, short revents) {
  Ready r;
  auto it = conns_.find(fd);
  if (it == conns_.end()) return r;
  Conn& c = it->second;
  if (revents & POLLOUT) {
    if (!flush(fd, c) || (c.last && c.out.empty())) {
      close(fd);
      r.closed = true;
      return r;
    }
  }
  if (!(revents & (POLLIN | POLLHUP | POLLERR))) return r;
  char buf[65536];
  const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
  if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
    close(fd);
    r.closed = true;
    return r;
  }
  if (n < 0 || c.requested) return r;  // a stream's client has nothing more to say: ignored
  c.in.append(buf, static_cast<std::size_t>(n));
  const auto nl = c.in.find('\n');
  if (nl == std::string::npos) {
    if (c.in.size() > kMaxRequestBytes) {
      c.requested = true;
      r.refusal = encode_error(Error{"request too large (more than 64 MiB)"});
    }
    return r;
  }
  c.requested = true;
  r.request = c.in.substr(0, nl);
  c.in.clear();
  c.in.shrink_to_fit();
  return r;
}

void Connections::send(int fd, const std::string& line, bool last) {
  auto it = conns_.find(fd);
  if (it == conns_.end()) return;
  Conn& c = it->second;
  c.out += line;
  c.out += '\n';
  c.last = c.last || last;
  if (!flush(fd, c) || (c.last && c.out.empty())) close(fd);
}

void Connections::queue(int fd, const std::string& line) {
  auto it = conns_.find(fd);
  if (it == conns_.end()) return;
  it->second.out += line;
  it->second.out += '\n';
}

void Connections::queue_lines(int fd, std::string_view lines) {
  if (lines.empty()) return;
  auto it = conns_.find(fd);
  if (it == conns_.end()) return;
  it->second.out += lines;
}

void Connections::flush(int fd) {
  auto it = conns_.find(fd);
  if (it == conns_.end()) return;
  if (!flush(fd, it->second) || (it->second.last && it->second.out.empty())) close(fd);
}

void Connections::send_now_and_close(int fd, const std::string& line, double deadline) {
  auto it = conns_.find(fd);
  if (it == conns_.end()) return;
  Conn& c = it->second;
  send_until(fd, c.out.substr(c.sent) + line + "\n", deadline);
  close(fd);
}

std::size_t Connections::held(int fd) const {
  auto it = conns_.find(fd);
  return it == conns_.end() ? 0 : it->second.out.size() - it->second.tried;
}

std::size_t Connections::unsent(int fd) const {
  auto it = conns_.find(fd);
  return it == conns_.end() ? 0 : it->second.out.size() - it->second.sent;
}

void Connections::close(int fd) {
  if (!conns_.erase(fd)) return;
  ::close(fd);
  closed_.push_back(fd);
}

}  // namespace yard
