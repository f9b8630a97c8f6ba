// Native job names that carry the Switchyard UID, the same for every scheduler:
// "yard-<uid>" or "yard-<uid>-<name>". The user's own name is kept by yard; the native
// copy is only for people reading squeue or the like, so it is reduced to characters
// that need no quoting anywhere (directive lines, '|'-separated listings, file names)
// and that every scheduler accepts in a name (one refuses / : @ \ * ? and blanks).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace yard {

inline constexpr std::string_view kNativeNamePrefix = "yard-";
// Schedulers accept long names, but people read them in listings: keep them short.
inline constexpr std::size_t kNativeNameMaxUserPart = 64;

std::string native_job_name(std::string_view uid, std::string_view job_name);
std::optional<std::string> uid_from_native_job_name(std::string_view native_name);

}  // namespace yard
