// What a failed Torque command means: the server out of reach (worth retrying), ids it
// no longer knows among those it printed (a usable listing), or a refusal.
#pragma once

#include <string_view>

namespace yard {

// pbs_connect's words when the server is down, busy or unreachable, whatever the status.
bool torque_transient_failure(int exit_code, std::string_view err);
// `qstat` of ids some of which it no longer knows (keep_completed passed): status 153
// and `qstat: Unknown Job Id Error ID` lines, the others printed.
bool torque_usable_despite(int exit_code, std::string_view err);

}  // namespace yard
