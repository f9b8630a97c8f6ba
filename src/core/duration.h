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

// A span of time as a workflow file says one: "30s", "5m", "1h" (a number, fractions too,
// and its unit), or a walltime as above ("1:00:00"). An error names the text.
Result<double> parse_seconds(const std::string& text);

// Formats seconds as Slurm does: [D-]HH:MM:SS.
std::string format_walltime(std::int64_t seconds);

}  // namespace yard
