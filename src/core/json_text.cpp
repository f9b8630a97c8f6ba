#include "core/json_text.h"

#include <nlohmann/json.hpp>

#include "core/text.h"

namespace yard {
namespace {

bool holds_invalid_utf8(const nlohmann::json& j) {
  if (j.is_string()) return !is_valid_utf8(j.get_ref<const std::string&>());
  if (j.is_array())
    for (auto& v : j)
      if (holds_invalid_utf8(v)) return true;
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it)
      if (!is_valid_utf8(it.key()) || holds_invalid_utf8(it.value())) return true;
  return false;
}

void escape_in_place(nlohmann::json& j) {
  if (j.is_string()) {
    auto& s = j.get_ref<std::string&>();
    if (!is_valid_utf8(s)) s = escape_invalid_utf8(s);
  } else if (j.is_array()) {
    for (auto& v : j) escape_in_place(v);
  } else if (j.is_object()) {
    nlohmann::json fixed = nlohmann::json::object();  // keys cannot be renamed in place
    for (auto it = j.begin(); it != j.end(); ++it) {
      escape_in_place(it.value());
      fixed[escape_invalid_utf8(it.key())] = std::move(it.value());
    }
    j = std::move(fixed);
  }
}

}  // namespace

nlohmann::json with_valid_utf8(nlohmann::json j) {
  escape_in_place(j);
  return j;
}

std::string dump_json(const nlohmann::json& j, int indent) {
  // The strict dump is kept (not error_handler_t::replace, which would print U+FFFD and
  // lose which byte it was); a value is copied only when it holds invalid text.
  if (!holds_invalid_utf8(j)) return j.dump(indent);
  return with_valid_utf8(j).dump(indent);
}

}  // namespace yard
