#include "backends/native_names.h"

#include "core/uid.h"

namespace yard {
namespace {

bool keep(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '+';
}

}  // namespace

std::string native_job_name(std::string_view uid, std::string_view job_name) {
  std::string out(kNativeNamePrefix);
  out += uid;
  if (job_name.empty()) return out;
  out += '-';
  std::size_t n = 0;
  for (char c : job_name) {
    if (n++ == kNativeNameMaxUserPart) break;
    out += keep(c) ? c : '_';
  }
  return out;
}

std::optional<std::string> uid_from_native_job_name(std::string_view native_name) {
  if (native_name.substr(0, kNativeNamePrefix.size()) != kNativeNamePrefix) return std::nullopt;
  auto rest = native_name.substr(kNativeNamePrefix.size());
  constexpr std::size_t kUidLen = 18;  // "yd" + 16 hex digits (core/uid.h)
  if (rest.size() < kUidLen || !is_uid(rest.substr(0, kUidLen))) return std::nullopt;
  if (rest.size() > kUidLen && rest[kUidLen] != '-') return std::nullopt;
  return std::string(rest.substr(0, kUidLen));
}

}  // namespace yard
