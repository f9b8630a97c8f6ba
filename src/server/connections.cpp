#include "server/connections.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "protocol/messages.h"
#include "server/listener.h"

namespace yard {

Connections::~Connections() {
  for (auto& [fd, c] : conns_) ::close(fd);
}

void Connections::poll_fds(std::vector<pollfd>& fds, const std::function<bool(int)>& wants_room) const {
  for (const auto& [fd, c] : conns_) {
    short events = POLLIN;
    if (c.sent < c.tried || (c.out.empty() && wants_room(fd))) events |= POLLOUT;
    fds.push_back({fd, events, 0});
  }
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

void Connections::send_now_and_close(int fd, const std::string& line) {
  auto it = conns_.find(fd);
  if (it == conns_.end()) return;
  Conn& c = it->second;
  send_line(fd, c.out.substr(c.sent) + line);
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
