// Job arrays in Slurm's --array syntax: "0-15", "1,3,5-9:2", "1-1000%50" (at most 50
// elements running at once).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace yard {

struct ArraySpec {
  std::vector<std::int64_t> indices;  // sorted, unique
  int max_running = 0;                // 0 = no throttle
};

// `max_elements` bounds the expansion so a typo cannot allocate billions of jobs.
Result<ArraySpec> parse_array_spec(std::string_view text, std::int64_t max_elements = 1'000'000);

// The indices (and throttle) back in that syntax, with the fewest ranges: "1,3,5-9:2%4".
std::string array_text(const ArraySpec& array);

}  // namespace yard
