// What the tests of every scheduler's directive reader share.
#pragma once

#include <map>
#include <string>

#include "jobtext/script_language.h"

namespace yard::directive_testing {

// Each sbatch option the directives give ("--array"), and the line that gave it.
inline std::map<std::string, int> option_lines(const TranslatedDirectives& d) {
  std::map<std::string, int> out;
  for (const auto& l : d.directives.lines)
    for (const auto& w : l.words) out[w.substr(0, w.find('='))] = l.number;
  return out;
}

}  // namespace yard::directive_testing
