#include "core/byte_json.h"

#include <array>
#include <cstdint>

#include "core/text.h"

namespace yard {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

[[noreturn]] void malformed(const std::string& what) {
  throw nlohmann::json::other_error::create(501, what, static_cast<const nlohmann::json*>(nullptr));
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const std::uint32_t v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                            static_cast<unsigned char>(bytes[i + 2]);
    for (int shift : {18, 12, 6, 0}) out += kAlphabet[(v >> shift) & 63];
  }
  if (i < bytes.size()) {
    std::uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string base64_decode(std::string_view text) {
  std::array<int, 256> value{};
  value.fill(-1);
  for (int k = 0; k < 64; ++k) value[static_cast<unsigned char>(kAlphabet[k])] = k;
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  std::string out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char ch : text) {
    const int v = value[static_cast<unsigned char>(ch)];
    if (v < 0) malformed("invalid base64 character");
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  return out;
}

nlohmann::json bytes_to_json(std::string_view s) {
  if (is_valid_utf8(s)) return std::string(s);
  return nlohmann::json{{"base64", base64_encode(s)}};
}

std::string bytes_from_json(const nlohmann::json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_object() && j.size() == 1 && j.contains("base64") && j["base64"].is_string())
    return base64_decode(j["base64"].get<std::string>());
  malformed("expected a string or {\"base64\": ...}");
}

nlohmann::json byte_list_to_json(const std::vector<std::string>& v) {
  auto out = nlohmann::json::array();
  for (auto& s : v) out.push_back(bytes_to_json(s));
  return out;
}

std::vector<std::string> byte_list_from_json(const nlohmann::json& j) {
  if (!j.is_array()) malformed("expected a list");
  std::vector<std::string> out;
  out.reserve(j.size());
  for (auto& e : j) out.push_back(bytes_from_json(e));
  return out;
}

nlohmann::json byte_map_to_json(const std::map<std::string, std::string>& m) {
  bool names_utf8 = true;
  for (auto& [k, v] : m) names_utf8 = names_utf8 && is_valid_utf8(k);
  if (names_utf8) {
    auto out = nlohmann::json::object();
    for (auto& [k, v] : m) out[k] = bytes_to_json(v);
    return out;
  }
  auto out = nlohmann::json::array();
  for (auto& [k, v] : m) out.push_back(nlohmann::json::array({bytes_to_json(k), bytes_to_json(v)}));
  return out;
}

std::map<std::string, std::string> byte_map_from_json(const nlohmann::json& j) {
  std::map<std::string, std::string> out;
  if (j.is_object()) {
    for (auto& [k, v] : j.items()) out[k] = bytes_from_json(v);
  } else if (j.is_array()) {
    for (auto& pair : j) {
      if (!pair.is_array() || pair.size() != 2) malformed("expected [name, value]");
      out[bytes_from_json(pair[0])] = bytes_from_json(pair[1]);
    }
  } else {
    malformed("expected an object or a list of [name, value]");
  }
  return out;
}

}  // namespace yard
