// Walltime parsing in every form Slurm accepts for --time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace yard {

// Parses MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS into seconds.
// "UNLIMITED" / "infinite" give 0, meaning no limit. Minutes and seconds must be < 60
// (and hours < 24 after a day part) except in the single-number minutes form.
Result<std::int64_t> parse_walltime(std::string_view text);

// Formats seconds as Slurm does: [D-]HH:MM:SS.
std::string format_walltime(std::int64_t seconds);

}  // namespace yard
