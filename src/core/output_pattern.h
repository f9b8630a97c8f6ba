// Output file patterns as in sbatch -o/-e: %j job id, %x job name, %A array job id,
// %a array index, %u user name, %% a literal percent sign.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace yard {

struct PatternValues {
  std::int64_t job_id = 0;
  std::string name;
  std::int64_t array_job_id = 0;
  std::optional<std::int64_t> array_index;
  std::string user;
};

std::string expand_output_pattern(std::string_view pattern, const PatternValues& v);

}  // namespace yard
