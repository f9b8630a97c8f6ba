// The daemon's answer to each request of its protocol (server/protocol.h): one function
// per operation, given the decoded request, testable without a socket. They run inside
// the loop iteration's store transaction; a reply is sent only after its commit.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "backends/backend_registry.h"
#include "server/paths.h"
#include "store/store.h"

namespace yard {

struct DaemonState {
  Store& store;
  const Backends& backends;
  const Paths& paths;
  bool draining = false;  // shutdown --kill-jobs: no more submissions, stop when all ended
  bool stopping = false;  // leave the loop after this iteration
};

// The reply to one request line (JSON text); never throws.
nlohmann::json handle_request(DaemonState& daemon, const std::string& line, double now);

// {"ok":false,"error":...,"kind":...}
nlohmann::json error_reply(const std::string& message, ErrorKind kind = ErrorKind::Invalid);
inline nlohmann::json error_reply(const Error& e) { return error_reply(e.message, e.kind); }

}  // namespace yard
