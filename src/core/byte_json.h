// Byte strings in JSON. On Linux, names, arguments, environments, paths and scripts are
// bytes, and a Latin-1 comment or a variable set by some other program is everyday; JSON
// text must be UTF-8. A string that is valid UTF-8 travels as a JSON string, exactly as
// before; any other travels as {"base64": "..."}, so every byte crosses the socket and the
// store unchanged and the JSON stays valid. Readers take either form.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/text.h"  // is_valid_utf8

namespace yard {

std::string base64_encode(std::string_view bytes);
// Throws nlohmann::json::type_error-like out_of_range (caught as a malformed request) on
// a character outside the alphabet.
std::string base64_decode(std::string_view text);

nlohmann::json bytes_to_json(std::string_view s);
// A string or {"base64": ...}; throws nlohmann::json::exception on anything else.
std::string bytes_from_json(const nlohmann::json& j);

nlohmann::json byte_list_to_json(const std::vector<std::string>& v);
std::vector<std::string> byte_list_from_json(const nlohmann::json& j);

// An object when every name is UTF-8 (values as above); else a list of [name, value].
nlohmann::json byte_map_to_json(const std::map<std::string, std::string>& m);
std::map<std::string, std::string> byte_map_from_json(const nlohmann::json& j);

}  // namespace yard
