// The daemon's wire protocol on its Unix socket: one JSON object per line each way.
//   {"op":"submit","spec":{JobSpec}}      -> {"ok":true,"ids":[...]}
//   {"op":"cancel","ids":[...]}           -> {"ok":true,"ids":[acted on]}
//   {"op":"ping"}                         -> {"ok":true,"pid":N,"running":N,"pending":N}
//   {"op":"shutdown","kill_jobs":bool}    -> {"ok":true}
// Errors: {"ok":false,"error":"message a user can act on"}.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace yard {

// Sends one request and reads one reply (the client side).
Result<nlohmann::json> call_daemon(const std::string& socket_path, const nlohmann::json& request,
                                   int timeout_ms = 30000);

}  // namespace yard
