// The daemon's client connections: each reads one request line, then gets its reply (and
// is closed once that is sent), or stays open for a stream (a wait's late reply, a
// watch's events). Writes never block the daemon: what a client has not read yet waits in
// its buffer, sent as its socket takes it; a stream adds to a buffer only while it is
// small (server/subscribers.h reads the rest from the store later). The connections are
// watched through one epoll descriptor that the daemon's poll() watches: a thousand open
// streams cost a loop iteration nothing until one of them is ready.
#pragma once

#include <poll.h>

#include <algorithm>
#include <cstddef>
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

  Connections();
  Connections(const Connections&) = delete;
  Connections& operator=(const Connections&) = delete;
  ~Connections();

  void add(int fd);
  bool owns(int fd) const { return conns_.count(fd) != 0; }
  // The descriptor to poll for POLLIN: readable when some connection is ready (-1 if the
  // kernel gave no epoll instance: the daemon cannot serve then).
  int poll_fd() const { return epoll_fd_; }
  // The connections ready now, with what they are ready for (POLLIN, POLLOUT, POLLHUP,
  // POLLERR), for ready(); never waits.
  std::vector<std::pair<int, short>> ready_now() const;

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
  // Sends what waits and `line`, waiting for the client to read until `deadline`
  // (monotonic seconds) at most, then closes: only before the daemon restarts or stops,
  // with one deadline for all, so that clients that do not read cost it kLastWordsS in
  // all (they would otherwise hold its stop for ever).
  static constexpr double kLastWordsS = 2;
  void send_now_and_close(int fd, const std::string& line, double deadline);
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
    bool watching_out = false;  // epoll tells when its socket takes more (bytes offered wait)
  };
  // Asks epoll for room on `fd` exactly while bytes offered to its socket wait.
  void want_out(int fd, Conn& c);
  // Sends what the socket takes; false if the connection broke.
  bool flush(int fd, Conn& c);
  int epoll_fd_ = -1;
  std::map<int, Conn> conns_;
  std::vector<int> closed_;
};

}  // namespace yard
