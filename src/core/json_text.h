// JSON output that cannot fail on bytes. JSON holds Unicode text only, and nlohmann::json
// throws (type_error 316) when it meets a string that is not valid UTF-8, while a job's
// name, reason, paths and account come from users and are bytes. Every `--json` output
// goes through dump_json, which shows such bytes as the text \xNN (core/text.h).
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

namespace yard {

// `j` with every string, object keys included, passed through escape_invalid_utf8.
nlohmann::json with_valid_utf8(nlohmann::json j);
// j.dump(indent), never throwing for invalid UTF-8.
std::string dump_json(const nlohmann::json& j, int indent = -1);

}  // namespace yard
