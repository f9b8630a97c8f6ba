// What a failed HTCondor command means: the schedd out of reach or busy (worth retrying)
// or a refusal. condor_q and condor_history print nothing for ids they do not know, and
// exit 0: no listing needs reading despite a failure.
#pragma once

#include <string_view>

namespace yard {

bool htcondor_transient_failure(int exit_code, std::string_view err);

}  // namespace yard
