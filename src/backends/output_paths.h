// Output files of a job on an indirect backend, in two forms: what the scheduler is told
// (its own %-escapes; for arrays the index left to the scheduler as %a) and, per job or
// array element, the path yard records so that `yard logs` finds the file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/job_spec.h"

namespace yard {

struct OutputPaths {
  std::string native_out, native_err;      // native_err empty: merged with stdout
  std::string out_template, err_template;  // with \x01 and a width where the array index goes
};

// `head` is the job id (or the array's id); `user` fills %u.
OutputPaths output_paths(const JobSpec& spec, std::int64_t head, bool is_array, const std::string& user);
// The path of one member from a template (`index`: the array index, if any).
std::string member_path(const std::string& tmpl, std::optional<std::int64_t> index);

}  // namespace yard
