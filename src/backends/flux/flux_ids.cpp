#include "backends/flux/flux_ids.h"

#include <algorithm>
#include <limits>

namespace yard {
namespace {

constexpr std::string_view kAlphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
constexpr std::string_view kUtf8Prefix = "\xC6\x92";  // U+0192, ƒ

}  // namespace

std::string flux_f58(std::uint64_t id) {
  std::string digits;
  do {
    digits += kAlphabet[id % 58];
    id /= 58;
  } while (id > 0);
  std::reverse(digits.begin(), digits.end());
  return "f" + digits;
}

std::optional<std::uint64_t> flux_fluid(std::string_view text) {
  if (text.empty() || text.size() > 24) return std::nullopt;
  const bool decimal = text.find_first_not_of("0123456789") == std::string_view::npos;
  std::uint64_t base = 10;
  if (!decimal) {
    if (text.starts_with(kUtf8Prefix)) text.remove_prefix(kUtf8Prefix.size());
    else if (text.starts_with("f")) text.remove_prefix(1);
    else return std::nullopt;
    base = 58;
  }
  if (text.empty()) return std::nullopt;
  std::uint64_t id = 0;
  for (char c : text) {
    const auto digit = base == 10 ? std::string_view::size_type(c - '0') : kAlphabet.find(c);
    if (digit == std::string_view::npos) return std::nullopt;
    if (id > (std::numeric_limits<std::uint64_t>::max() - digit) / base) return std::nullopt;  // more than 64 bits
    id = id * base + digit;
  }
  return id;
}

std::optional<std::string> flux_ascii_id(std::string_view text) {
  auto id = flux_fluid(text);
  if (!id) return std::nullopt;
  return flux_f58(*id);
}

}  // namespace yard
