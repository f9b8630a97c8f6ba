#include "jobtext/script_job.h"

namespace yard::jobtext {

int Job::line(std::string_view option) const {
  auto it = lines.find(option);
  return it == lines.end() ? 0 : it->second;
}

std::string Job::option(std::string_view name, bool* given) const {
  std::string value;
  bool found = false;
  for (const auto& [n, v] : options)
    if (n == name) value = v, found = true;  // the last one counts
  if (given) *given = found;
  return value;
}

}  // namespace yard::jobtext
