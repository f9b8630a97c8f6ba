// One exchange with the daemon over its Unix socket: a request line out, a reply line
// back (protocol/messages.h says what the lines hold).
#pragma once

#include <functional>
#include <string>
#include <utility>

#include "core/result.h"

namespace yard {

struct Exchange {
  enum class Outcome {
    Replied,       // `text` is the reply line (without its '\n')
    NotDelivered,  // the daemon never had the whole request: it cannot have acted on it
    NoReply,       // the request went out whole, and no reply came: it may have been done
  };
  Outcome outcome = Outcome::NotDelivered;
  std::string text;  // the reply, or why there is none
};

// Sends `line` and waits for the reply. `keep_waiting(waited_s)` is asked after each
// second without progress (while the request is sent or its reply awaited); false ends
// the wait. A daemon that refused the request and closed the connection while it was
// still being sent ("request too large") is read: that is its reply.
Exchange exchange(const std::string& socket_path, const std::string& line,
                  const std::function<bool(double waited_s)>& keep_waiting);

// The reply line, within `timeout_ms`; Unavailable when the daemon cannot be reached,
// does not answer in time, or closes the connection first.
Result<std::string> exchange_line(const std::string& socket_path, const std::string& line, int timeout_ms);

}  // namespace yard

namespace yard {

// A connection that stays open for a stream of reply lines (a wait, a watch).
class LineStream {
 public:
  // Connects and sends `line`; Unavailable when no daemon takes it.
  static Result<LineStream> open(const std::string& socket_path, const std::string& line);
  LineStream(LineStream&& o) noexcept : fd_(std::exchange(o.fd_, -1)), in_(std::move(o.in_)), pos_(o.pos_) {}
  LineStream& operator=(LineStream&&) = delete;
  ~LineStream();
  enum class Got { Line, Timeout, Closed };
  // The next line into `line`, waiting up to `timeout_ms` (-1: for ever).
  Got next(std::string& line, int timeout_ms);

 private:
  explicit LineStream(int fd) : fd_(fd) {}
  int fd_ = -1;
  std::string in_;
  std::size_t pos_ = 0;  // where the next line starts in in_
};

}  // namespace yard
