// What a failed Grid Engine command means: the qmaster out of reach (worth retrying), or
// a listing that found nothing (qacct's status 1), or a refusal.
#pragma once

#include <string_view>

namespace yard {

bool sge_transient_failure(int exit_code, std::string_view err);
bool sge_found_nothing(int exit_code, std::string_view err);

}  // namespace yard
