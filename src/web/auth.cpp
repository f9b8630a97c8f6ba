#include "web/auth.h"

#include <sstream>

#include "core/clock.h"
#include "web/http_reply.h"
#include "web/secrets.h"

namespace yard::web {
namespace {

std::string cookie_value(const httplib::Request& req, const std::string& name) {
  const std::string header = req.get_header_value("Cookie");
  std::stringstream in(header);
  std::string part;
  while (std::getline(in, part, ';')) {
    const auto start = part.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    part = part.substr(start);
    if (part.rfind(name + "=", 0) == 0) return part.substr(name.size() + 1);
  }
  return "";
}

bool changes_state(const httplib::Request& req) { return req.method != "GET" && req.method != "HEAD"; }

}  // namespace

std::string csrf_for(const Site& site, const std::string& session_token) {
  return keyed_digest(site.db->site_key(), "csrf:" + session_token);
}

std::optional<Caller> authenticate(Site& site, const httplib::Request& req, httplib::Response& res) {
  const double now = wall_now();
  const std::string bearer = req.get_header_value("Authorization");
  Caller caller;
  std::string kind;
  if (bearer.rfind("Bearer ", 0) == 0) {
    caller.token = bearer.substr(7);
    kind = "api";
  } else {
    caller.token = cookie_value(req, kSessionCookie);
    caller.via_cookie = true;
    kind = "session";
  }
  if (caller.token.empty()) {
    send_error(res, 401, "log in first");
    return std::nullopt;
  }
  const std::string digest = token_digest(caller.token);
  auto found = site.db->token_user(digest, kind, now);
  if (!found) {
    send_error(res, 401, kind == "api" ? "the token is unknown or expired: ask for a new one"
                                       : "the session has ended: log in again");
    return std::nullopt;
  }
  if (caller.via_cookie && changes_state(req) &&
      !same_secret(req.get_header_value("X-CSRF-Token"), csrf_for(site, caller.token))) {
    send_error(res, 403, "the request lacks the session's X-CSRF-Token");
    return std::nullopt;
  }
  caller.user = found->first;
  // A session lives 15 minutes from its last use; written at most once a minute.
  if (caller.via_cookie && found->second - now < kTokenLifetimeS - 60) (void)site.db->touch_token(digest, now + kTokenLifetimeS);
  return caller;
}

httplib::Server::Handler guarded(Site& site, CallerHandler handler) {
  return [&site, handler = std::move(handler)](const httplib::Request& req, httplib::Response& res) {
    if (auto caller = authenticate(site, req, res)) handler(*caller, req, res);
  };
}

namespace {

nlohmann::json user_json(const User& u) { return {{"name", u.name}, {"admin", u.admin}, {"account", u.account}}; }

std::string session_cookie(const Site& site, const std::string& token, double max_age) {
  return std::string(kSessionCookie) + "=" + token + "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" +
         std::to_string(static_cast<long>(max_age)) + (site.settings.secure_cookies ? "; Secure" : "");
}

// The name and password of a login body, checked against the limiter; the user, or
// nothing after replying.
std::optional<User> check_login(Site& site, const httplib::Request& req, httplib::Response& res) {
  auto body = json_body(req, res, {"name", "password"});
  if (!body) return std::nullopt;
  if (!(*body)["name"].is_string() || !(*body)["password"].is_string()) {
    send_error(res, 400, "name and password are text", (*body)["name"].is_string() ? "password" : "name");
    return std::nullopt;
  }
  const std::string name = (*body)["name"], password = (*body)["password"];
  const double now = wall_now();
  if (double wait = site.logins.wait_s(name, req.remote_addr, now); wait > 0) {
    res.set_header("Retry-After", std::to_string(static_cast<long>(wait) + 1));
    send_error(res, 429, "too many failed logins: try again in " + std::to_string(static_cast<long>(wait) + 1) + " s");
    return std::nullopt;
  }
  auto found = site.db->user_with_hash(name);
  if (!found || !password_matches(found->second, password)) {
    site.logins.failed(name, req.remote_addr, now);
    (void)site.db->audit(name, "login.failed", "from " + req.remote_addr);
    send_error(res, 401, "wrong name or password");
    return std::nullopt;
  }
  return found->first;
}

// A new session or API token for `user`, stored as its digest; the token itself once.
Result<std::string> issue_token(Site& site, const std::string& user, const char* kind) {
  std::string token = random_token();
  if (auto st = site.db->add_token(token_digest(token), user, kind, wall_now() + kTokenLifetimeS); !st)
    return st.failure();
  return token;
}

}  // namespace

void add_session_routes(httplib::Server& server, Site& site) {
  server.Post("/api/v1/session", [&site](const httplib::Request& req, httplib::Response& res) {
    auto user = check_login(site, req, res);
    if (!user) return;
    auto token = issue_token(site, user->name, "session");
    if (!token) return send_failure(res, token.failure());
    (void)site.db->audit(user->name, "login", "from " + req.remote_addr);
    res.set_header("Set-Cookie", session_cookie(site, *token, kTokenLifetimeS));
    send_json(res, 200, {{"user", user_json(*user)}, {"csrf", csrf_for(site, *token)}, {"expires_in", kTokenLifetimeS}});
  });
  server.Get("/api/v1/session", guarded(site, [&site](const Caller& c, const httplib::Request&, httplib::Response& res) {
    if (!c.via_cookie) return send_json(res, 200, {{"user", user_json(c.user)}});
    send_json(res, 200, {{"user", user_json(c.user)}, {"csrf", csrf_for(site, c.token)}, {"expires_in", kTokenLifetimeS}});
  }));
  server.Delete("/api/v1/session", guarded(site, [&site](const Caller& c, const httplib::Request&, httplib::Response& res) {
    (void)site.db->drop_token(token_digest(c.token));
    (void)site.db->audit(c.user.name, "logout", "");
    res.set_header("Set-Cookie", session_cookie(site, "", 0));
    res.status = 204;
  }));
  // An API token for a program, asked for with a name and password.
  server.Post("/api/v1/tokens", [&site](const httplib::Request& req, httplib::Response& res) {
    auto user = check_login(site, req, res);
    if (!user) return;
    auto token = issue_token(site, user->name, "api");
    if (!token) return send_failure(res, token.failure());
    (void)site.db->audit(user->name, "token.new", "from " + req.remote_addr);
    send_json(res, 201, {{"token", *token}, {"expires_in", kTokenLifetimeS}});
  });
  server.Post("/api/v1/tokens/refresh", guarded(site, [&site](const Caller& c, const httplib::Request&, httplib::Response& res) {
    if (c.via_cookie) return send_error(res, 400, "refresh an API token (Authorization: Bearer), not a session");
    auto token = issue_token(site, c.user.name, "api");
    if (!token) return send_failure(res, token.failure());
    (void)site.db->drop_token(token_digest(c.token));
    send_json(res, 201, {{"token", *token}, {"expires_in", kTokenLifetimeS}});
  }));
}

}  // namespace yard::web
