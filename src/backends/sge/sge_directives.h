// Reads a Grid Engine batch script's `#$` directives as qsub does, and says them in
// yard's (sbatch's) words, so that a script written for Grid Engine runs unchanged on
// any backend. As qsub, every `#$` line of the script counts (not only those before the
// first command) and a later value wins; words are split as a shell would (quotes group,
// an unquoted # after a blank starts a comment). As qsub, a job gets the caller's
// environment only with -V; without it, the variables of -v alone (--export=A=1,B or NONE).
//
// What yard cannot honour but would not change the job's result (mail, -notify, -R, ...)
// becomes a warning naming the line and the option; what would change it (-h, -a, a
// dependency on a job name) and unknown options are errors naming the line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "jobtext/script_language.h"  // TranslatedDirectives

namespace yard {

// The pseudo variables Grid Engine puts values in for in -o/-e paths ($JOB_ID, $TASK_ID,
// $JOB_NAME, $USER, $HOSTNAME, $HOME), in the order the reader tries them at a '$': a
// writer of #$ lines must not let a path's own text form them.
const std::vector<std::string_view>& sge_path_words();

// True if `script` has `#$` directive lines (column 1).
bool has_sge_directives(std::string_view script);

// `origin` names the script in messages. `is_directory` says whether an -o/-e path names
// a directory (Grid Engine then writes JOBNAME.oJOBID into it).
Result<TranslatedDirectives> read_sge_directives(std::string_view script, std::string_view origin,
                                                 bool (*is_directory)(const std::string&) = nullptr);

}  // namespace yard
