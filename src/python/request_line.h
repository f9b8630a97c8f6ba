// Any request of the daemon's protocol (protocol/messages.h), given as its JSON line, sent
// through the client library's typed call for it, and its reply as the daemon's JSON
// line: the Python module speaks the documented wire format (docs/API.md) without a
// binding per field, and still goes through the client's retries, autostart and
// patience. A line that is no request is an Invalid error naming what is wrong.
#pragma once

#include <string>
#include <string_view>

#include "client/daemon_client.h"

namespace yard {

// `wait` and `watch` keep a connection open: they have calls of their own (wait_line,
// DaemonClient::poll_events) and are refused here.
Result<std::string> request_line(DaemonClient& client, std::string_view line);

}  // namespace yard
