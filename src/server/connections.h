// The daemon's client connections: each reads one request line, then gets its reply (and
// is closed once that is sent), or stays open for a stream (a wait's late reply, a
// watch's events). Writes never block the daemon: what a client has not read yet waits in
// its buffer, sent as its socket takes it (POLLOUT); a stream adds to a buffer only while
// it is small (server/subscribers.h reads the rest from the store later).
#pragma once

#include <poll.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace yard {

class Connections {
 public:
  // Past this many unsent bytes a stream takes no more for now (Connections::room).
  static constexpr std::size_t kStreamBuffer = 64 << 10;

  Connections() = default;
  Connections(const Connections&) = delete;
  Connections& operator=(const Connections&) = delete;
  ~Connections();

  void add(int fd) { conns_[fd]; }
  bool owns(int fd) const { return conns_.count(fd) != 0; }
  // POLLIN for every connection, POLLOUT for those with bytes to send or for which
  // `wants_room(fd)` (a stream waiting for room to read more of the log into).
  void poll_fds(std::vector<pollfd>& fds, const std::function<bool(int)>& wants_room) const;

  struct Ready {
    std::optional<std::string> request;  // a whole request line, the first on this connection
    std::optional<std::string> refusal;  // a reply to send at once and close (request too large)
    bool closed = false;                 // the client went away: forget it
  };
  // After poll: sends what the socket takes, reads what came.
  Ready ready(int fd, short revents);

  // Queues `line` and sends what the socket takes now; `last`: close once it is all sent.
  void send(int fd, const std::string& line, bool last);
  // Queues `line` without sending: it is held until flush() (a stream adds many, then
  // sends them in one go). Held bytes ask for no POLLOUT.
  void queue(int fd, const std::string& line);
  // Queues `lines` as they are (each already ends in a newline), without sending.
  void queue_lines(int fd, std::string_view lines);
  void flush(int fd);
  // Bytes queued and not yet offered to the socket.
  std::size_t held(int fd) const;
  // Sends `line` even if that blocks, then closes (only before the daemon restarts or stops).
  void send_now_and_close(int fd, const std::string& line);
  // Bytes not yet sent to `fd` (0 for an unknown one).
  std::size_t unsent(int fd) const;
  bool room(int fd) const { return unsent(fd) < kStreamBuffer; }
  // How many more bytes a stream takes now (0 past kStreamBuffer).
  std::size_t room_left(int fd) const { return kStreamBuffer - std::min(unsent(fd), kStreamBuffer); }
  std::size_t size() const { return conns_.size(); }
  void close(int fd);
  // The connections closed since last asked (their streams are forgotten then: never
  // while a stream's loop runs).
  std::vector<int> take_closed() { return std::exchange(closed_, {}); }

 private:
  struct Conn {
    std::string in, out;
    std::size_t sent = 0;   // bytes of `out` already sent
    std::size_t tried = 0;  // bytes of `out` offered to the socket (the rest is held)
    bool requested = false;  // its request line was taken
    bool last = false;       // close once `out` is sent
  };
  // Sends what the socket takes; false if the connection broke.
  bool flush(int fd, Conn& c);
  std::map<int, Conn> conns_;
  std::vector<int> closed_;
};

}  // namespace yard
