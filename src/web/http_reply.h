// Replies of the web API: JSON bodies, and errors as {"error": "...", "field": "..."} with
// their HTTP status; request bodies read as JSON objects with every field known.
#pragma once

#include <httplib.h>

#include <initializer_list>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace yard::web {

// The largest JSON body a request may have (uploads have their own limit).
inline constexpr std::size_t kMaxJsonBody = 1 << 20;

void send_json(httplib::Response& res, int status, const nlohmann::json& body);
void send_error(httplib::Response& res, int status, const std::string& message, const std::string& field = "");
// The HTTP status for an error of the daemon's kind.
int status_of(ErrorKind kind);
// A daemon error passed on (its message, its kind's status).
void send_failure(httplib::Response& res, const Error& e);

// The request's body as a JSON object whose keys are all among `known`; or nothing, after
// replying 400/413 naming what was wrong.
std::optional<nlohmann::json> json_body(const httplib::Request& req, httplib::Response& res,
                                        std::initializer_list<const char*> known);

// A query parameter as a whole number within [min, max], `fallback` when absent; nothing
// after replying 400.
std::optional<std::int64_t> int_param(const httplib::Request& req, httplib::Response& res, const char* name,
                                      std::int64_t fallback, std::int64_t min, std::int64_t max);

}  // namespace yard::web
