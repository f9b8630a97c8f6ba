// HTCondor's job states in Switchyard's terms (job-status-codes, hold-table): JobStatus,
// with the hold's code and subcode for a held job and the exit for a completed one.
#pragma once

#include "backends/dialect.h"

namespace yard {

// 1 idle (again, after an eviction: preempted or its machine lost), 2 and 6 running, 7
// suspended, 3 removed, 4 completed (ExitBySignal, ExitSignal, ExitCode), 5 held: for
// good when HTCondor stopped it (46/47 its time ran out, 34/102 over its memory, 34/104
// over its disk, and every other code), waiting when a person or the submission held it
// (1, 15, 16). Any other number is UNKNOWN, kept raw.
MappedState map_htcondor_state(const NativeStatus& s);

}  // namespace yard
