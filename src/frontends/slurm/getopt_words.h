// Slurm's commands read their options with getopt_long (abbreviated long names, `-xVALUE`,
// `--name=value`, options after operands): so do their front ends, through this.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "frontends/slurm/front.h"

namespace yard::slurm_front {

// Calls on(code, value) for each option in order (value "" for one without); returns the
// operands, or nullopt after printing getopt's own message for an unknown option or a
// missing value ("squeue: unrecognized option '--bogus'"), then Slurm's hint.
std::optional<Args> getopt_words(const std::string& command, const Args& args, const char* short_options,
                                 const std::vector<Option>& long_options,
                                 const std::function<bool(int code, const std::string& value)>& on,
                                 bool stop_at_first_operand = false);

}  // namespace yard::slurm_front
