// Every option of sbatch 22.05 (its man page) that yard has no flag of its own for, and
// what yard does with it. A Slurm job gets each one unchanged (#SBATCH --name=value);
// another backend honours what it can, warns in one line about what changes nothing in
// the result (mail, accounting, placement hints), and refuses what would (a start time,
// a hold, a container). The words of a command line or of an #SBATCH line are read as
// sbatch's getopt reads them: `--name=value`, `--name value`, `-Xvalue`, `-X value`,
// and any unambiguous abbreviation of a long name (`--mail-t END`).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace yard {

enum class SbatchValue { None, Required, Optional };  // Optional: only as --name=value
enum class SbatchUse {
  Pass,    // Slurm: unchanged; elsewhere: a warning, ignored
  Refuse,  // Slurm: unchanged; elsewhere: refused, it would change the result
  Client,  // about sbatch's own output (-v, --parsable): nothing to pass on
};

struct SbatchOption {
  std::string_view long_name;  // without the dashes
  char short_name;             // '\0' for none
  SbatchValue value;
  SbatchUse use;
  std::string_view why;        // for Refuse: what it would change
};

// The table, and one entry by long name (nullptr when it is not there).
const std::vector<SbatchOption>& sbatch_options();
const SbatchOption* find_sbatch_option(std::string_view long_name);

// sbatch options of a job: long name and value ("" for one that takes none), in order.
using SbatchSettings = std::vector<std::pair<std::string, std::string>>;

// The long options yard itself knows, for abbreviations (`--mem-per-c` is --mem-per-cpu)
// and for telling a word's value from a script: name -> takes a value.
struct KnownFlag {
  std::string_view long_name;
  char short_name;
  bool takes_value;
};

// Takes the words of the table's options out of `words` (up to the first word that is
// not an option or an option's value), expanding abbreviations of every long name, the
// table's and `known`'s (yard's own flags, given back spelled out in full). An option
// sbatch does not know, or an ambiguous abbreviation, is an error in sbatch's words
// ("unrecognized option '--frob'", "option '--mem-per' is ambiguous"); unless not
// `strict` (a heterogeneous component's flags), where it is left in `rest` for the flag
// parser to name. `--` ends the options.
struct SbatchWords {
  std::vector<std::string> rest;  // yard's own flags and everything after them
  SbatchSettings options;
};
Result<SbatchWords> take_sbatch_options(const std::vector<std::string>& words, const std::vector<KnownFlag>& known,
                                        bool strict = true);

}  // namespace yard
