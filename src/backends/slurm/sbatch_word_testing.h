// For tests: how sbatch itself reads one word of an #SBATCH line, to check that what the
// dialect writes comes back as it was meant.
#pragma once

#include <string>
#include <string_view>

namespace yard::testing {

// sbatch's reading of an #SBATCH word, as Slurm 22.05's sbatch reads it (tried on the
// test cluster): quotes group, and inside them a backslash escapes the next character;
// outside them a blank ends the word even after a backslash (`--output=a\ b` is refused:
// "Invalid directive found in batch script: b"), and an unquoted # ends the line.
inline std::string sbatch_word(std::string_view s) {
  std::string out;
  bool esc = false;
  char quote = 0;
  for (char c : s) {
    if (esc) {
      out += c;
      esc = false;
    } else if (quote && c == '\\') {
      esc = true;
    } else if (quote) {
      if (c == quote) quote = 0; else out += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#' || c == ' ' || c == '\t') {
      break;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace yard::testing
