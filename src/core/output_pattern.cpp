#include "core/output_pattern.h"

namespace yard {

std::string expand_output_pattern(std::string_view pattern, const PatternValues& v) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    const char c = pattern[++i];
    switch (c) {
      case 'j': out += std::to_string(v.job_id); break;
      case 'x': out += v.name; break;
      case 'A': out += std::to_string(v.array_job_id ? v.array_job_id : v.job_id); break;
      case 'a': out += v.array_index ? std::to_string(*v.array_index) : std::string("4294967294"); break;
      case 'u': out += v.user; break;
      case '%': out += '%'; break;
      default: out += '%'; out += c; break;  // unknown: kept as written
    }
  }
  return out;
}

}  // namespace yard
