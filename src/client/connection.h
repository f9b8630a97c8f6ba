// One exchange with the daemon over its Unix socket: a request line out, a reply line
// back (protocol/messages.h says what the lines hold).
#pragma once

#include <string>

#include "core/result.h"

namespace yard {

// The reply line (without its '\n'). Unavailable when the daemon cannot be reached, does
// not answer within `timeout_ms`, or closes the connection first.
Result<std::string> exchange_line(const std::string& socket_path, const std::string& line, int timeout_ms);

}  // namespace yard
