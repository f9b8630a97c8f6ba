// What a failed PBS Pro command means: the server out of reach (worth retrying), ids it
// no longer knows among those it printed (a usable listing), or a refusal.
#pragma once

#include <string_view>

namespace yard {

// qsub's exit status is pbs_errno % 256: 162 PBSE_SYSTEM (connection refused), 171
// PBSE_BADCRED, 183 PBSE_PROTOCOL are passing troubles (ERT retries on them), as are a
// server that cannot be reached or timed out, whatever the status.
bool pbs_transient_failure(int exit_code, std::string_view err);

// `qstat` exits 153 (PBSE_UNKJOBID) or 35 (PBSE_HISTJOBID) when some of its ids are
// unknown (history purged) or finished, and still prints the others: usable when every
// line of its stderr says just that.
bool pbs_usable_despite(int exit_code, std::string_view err);

}  // namespace yard
