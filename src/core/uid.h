// Switchyard UIDs: globally unique job identities, also written into each native job
// name so an in-flight submission can be found again after a crash.
#pragma once

#include <string>
#include <string_view>

namespace yard {

// "yd" followed by 16 lowercase hex digits from the kernel's random source.
std::string new_uid();
bool is_uid(std::string_view text);

}  // namespace yard
