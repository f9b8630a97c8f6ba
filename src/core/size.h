// Memory sizes as Slurm users write them: a number with an optional unit K, M, G, T
// (binary multiples; a trailing B or iB is accepted, any case). No unit means megabytes,
// as in sbatch --mem.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace yard {

Result<std::uint64_t> parse_memory_size(std::string_view text);
std::string format_bytes(std::uint64_t bytes);

}  // namespace yard
