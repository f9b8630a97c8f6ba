#include "web/http_reply.h"


namespace yard::web {

void send_json(httplib::Response& res, int status, const nlohmann::json& body) {
  res.status = status;
  // Texts from users and schedulers may be any bytes: replaced, never a thrown dump.
  res.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json");
}

void send_error(httplib::Response& res, int status, const std::string& message, const std::string& field) {
  send_json(res, status, {{"error", message}, {"field", field}});
}

int status_of(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Invalid: return 400;
    case ErrorKind::Unsatisfiable: return 400;
    case ErrorKind::NotFound: return 404;
    case ErrorKind::Conflict: return 409;
    case ErrorKind::Unavailable: return 503;
    case ErrorKind::OutcomeUnknown: return 504;
    case ErrorKind::Internal: return 500;
  }
  return 500;
}

void send_failure(httplib::Response& res, const Error& e) { send_error(res, status_of(e.kind), e.message); }

std::optional<nlohmann::json> json_body(const httplib::Request& req, httplib::Response& res,
                                        std::initializer_list<const char*> known) {
  if (req.body.size() > kMaxJsonBody) {
    send_error(res, 413, "the body is over " + std::to_string(kMaxJsonBody) + " bytes");
    return std::nullopt;
  }
  auto body = nlohmann::json::parse(req.body, nullptr, false);
  if (body.is_discarded()) {
    send_error(res, 400, "the body is not JSON");
    return std::nullopt;
  }
  if (!body.is_object()) {
    send_error(res, 400, "the body is a JSON object");
    return std::nullopt;
  }
  for (const auto& [key, value] : body.items()) {
    (void)value;
    bool found = false;
    std::string accepted;
    for (const char* k : known) {
      found = found || key == k;
      accepted += (accepted.empty() ? "" : ", ") + std::string(k);
    }
    if (!found) {
      send_error(res, 400, "unknown field '" + key + "' (accepted: " + accepted + ")", key);
      return std::nullopt;
    }
  }
  return body;
}

std::optional<std::int64_t> int_param(const httplib::Request& req, httplib::Response& res, const char* name,
                                      std::int64_t fallback, std::int64_t min, std::int64_t max) {
  if (!req.has_param(name)) return fallback;
  const std::string text = req.get_param_value(name);
  try {
    std::size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used == text.size() && v >= min && v <= max) return v;
  } catch (const std::exception&) {
  }
  send_error(res, 400,
             std::string(name) + ": '" + text + "' is not a whole number from " + std::to_string(min) + " to " +
                 std::to_string(max),
             name);
  return std::nullopt;
}

}  // namespace yard::web
