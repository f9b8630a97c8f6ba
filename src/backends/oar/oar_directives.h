// Reads an OAR batch script's `#OAR` directives as oarsub does (OAR::Sub::scan_script of
// 2.5.9): only when the script's first line starts with '#'; every later line starting
// with "#OAR" and a blank counts; one option per line, its value the rest of the line
// (no quoting); a line oarsub cannot read is an error. They are said in yard's (sbatch's)
// words: the resource hierarchy `-l /nodes=N/core=C,walltime=H:M:S` becomes nodes, tasks
// (one per core, as OAR_NODEFILE lists them), GPUs and the time limit.
#pragma once

#include <string_view>
#include <vector>

#include "jobtext/script_language.h"  // TranslatedDirectives

namespace yard {

bool has_oar_directives(std::string_view script);

// The patterns oarsub puts values in for in -O/-E paths (%jobid%, %jobname%, %arrayid%,
// %arrayindex%): a writer of #OAR lines must not let a path's own text form them.
const std::vector<std::string_view>& oar_path_words();

Result<TranslatedDirectives> read_oar_directives(std::string_view script, std::string_view origin);

}  // namespace yard
