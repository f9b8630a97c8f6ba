// Which failures of Slurm commands are worth retrying: the controller or the accounting
// database was unreachable or busy (it comes back), as opposed to a refusal (a bad
// partition, too many GPUs) that would fail the same way again.
#pragma once

#include <string_view>

namespace yard {

bool slurm_transient_failure(int exit_code, std::string_view err);

}  // namespace yard
