// sbatch's --signal=[{R|B}:]SIG[@TIME]: a signal sent TIME seconds (default 60) before the
// job's time limit, so that it can save its work. SIG is a number or a name (USR1,
// SIGUSR1); "B:" sends it to the batch shell only, else to every process of the job; "R:"
// (Slurm's reservation variant) is taken for the plain form outside Slurm.
#pragma once

#include <string_view>

#include "core/result.h"

namespace yard {

struct WarningSignal {
  int signal = 0;
  int seconds_before = 60;
  bool batch_only = false;
};

// An error names the value and says what is expected, in sbatch's terms.
Result<WarningSignal> parse_warning_signal(std::string_view value);

}  // namespace yard
