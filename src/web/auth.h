// Who is asking: a page with its session cookie (and, for anything that changes state,
// the session's CSRF token in X-CSRF-Token), or a program with an API token
// (Authorization: Bearer). Both last 15 minutes: a session from its last use, an API
// token until refreshed (POST /api/v1/tokens/refresh gives a new one and ends the old).
#pragma once

#include <httplib.h>

#include <functional>
#include <optional>
#include <string>

#include "web/site.h"

namespace yard::web {

inline constexpr double kTokenLifetimeS = 15 * 60;
inline constexpr const char* kSessionCookie = "yard_session";

struct Caller {
  User user;
  bool via_cookie = false;
  std::string token;  // the session or API token as presented
};

// The caller, or nothing after replying 401 (no credentials, or expired ones) or 403 (a
// cookie without its CSRF token on a request that changes state).
std::optional<Caller> authenticate(Site& site, const httplib::Request& req, httplib::Response& res);

using CallerHandler = std::function<void(const Caller&, const httplib::Request&, httplib::Response&)>;
// A handler that runs only for an authenticated caller.
httplib::Server::Handler guarded(Site& site, CallerHandler handler);

// The session's CSRF token: derived from it under the site's key, so nothing is stored.
std::string csrf_for(const Site& site, const std::string& session_token);

// POST/GET/DELETE /api/v1/session, POST /api/v1/tokens and /api/v1/tokens/refresh.
void add_session_routes(httplib::Server& server, Site& site);

}  // namespace yard::web
