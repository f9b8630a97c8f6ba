// Reads the #SBATCH directives of a batch script exactly as sbatch does: directive lines
// start in column 1 with "#SBATCH"; scanning stops at the first line that is neither blank
// nor a comment; each line is split into words as a shell would (quotes group, backslash
// escapes, an unquoted # starts a comment). The words are then parsed as command-line
// flags by the caller, before the real command line, so the command line wins.
// A line whose first word is `hetjob` (or the older `packjob`) starts the next component
// of a heterogeneous job; the words before the first separator are component 0's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace yard {

// One #SBATCH line with words: its number in the script, its component (0, 1, ...) and
// its words, the hetjob separator left out. sbatch parses each line on its own, so a
// flag missing its value (#SBATCH --mem) is an error on its line and does not take the
// next line's flag as its value; callers check lines one by one before merging them.
struct DirectiveLine {
  int number = 0;
  std::size_t component = 0;
  std::vector<std::string> words;
};

struct ScriptDirectives {
  std::vector<DirectiveLine> lines;
  std::vector<std::string> words;  // component 0's lines, joined
  // Components 1, 2, ... of a heterogeneous job, each never empty; empty for others.
  std::vector<std::vector<std::string>> components;
  bool has_shebang = false;
  // Whose directives these are, in sbatch's words: "" for #SBATCH, else the other
  // scheduler's prefix of the lines they were read from.
  std::string kind;
};

// `origin` names the script in error messages ("job.sh").
Result<ScriptDirectives> read_batch_directives(std::string_view script, std::string_view origin);

// Shell-like word splitting of one directive line; exposed for tests and fuzzing.
Result<std::vector<std::string>> split_directive_words(std::string_view line);

}  // namespace yard
