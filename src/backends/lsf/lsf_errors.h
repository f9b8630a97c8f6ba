// What a failed LSF command means: mbatchd out of reach or busy (worth retrying), ids it
// no longer knows among those it printed (a usable listing), or a refusal.
#pragma once

#include <string_view>

namespace yard {

// LSF's clients exit 255 for every failure: the words decide (ERT retries on
// "Request from non-LSF host rejected"; mbatchd busy: "LSF is processing your request").
bool lsf_transient_failure(int exit_code, std::string_view err);
// `bjobs IDS` exits 255 when some ids are unknown (CLEAN_PERIOD passed) and still
// lists the others: usable when every stderr line is "Job <N> is not found".
bool lsf_usable_despite(int exit_code, std::string_view err);

}  // namespace yard
