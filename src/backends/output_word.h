// The job's output file as one bash word, for batch scripts whose wrapper opens the
// job's files itself (where the scheduler's own output options take no quoting and
// cannot pad an array index).
#pragma once

#include <string>
#include <string_view>

namespace yard {

// `native` is a yard output path in the native form of backends/output_paths.h ('%%' a
// literal '%', '%a' or '%Na' the array index, zero-padded to N); `index_variable` names
// the shell variable holding the index: "'/out/x_'"$(printf %03d "$TASK_ID")"'.out'".
std::string output_word(const std::string& native, std::string_view index_variable);

}  // namespace yard
