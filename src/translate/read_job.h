// Reading a batch script, or a description of a job kept apart from its script, into a Job:
// its directives through the reader of its language (jobtext/script_kind.h, or a
// description's reader), said in sbatch's words, then through yard submit's own flag parsing
// (each line checked on its own as sbatch does, abbreviations such as --mem-per-c spelled
// out) and make_spec, so that the Job's spec is what `yard submit --test-only --json`
// resolves from the script.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "jobtext/script_job.h"
#include "jobtext/script_language.h"

namespace yard::translate {

using jobtext::Job;

// Reads a file (the script a description names): its bytes, or an error naming it.
using Loader = std::function<Result<std::string>(const std::string& path)>;

struct ReadJob {
  Job job;                            // job.spec.script is the script's text
  std::string kind;                   // the language read: slurm, or another of `languages`
  std::vector<std::string> warnings;  // the reader's, each naming the file and the line
};

// `origin` is the file's path (messages name it; the script a description names is found
// beside it); `from` the name of one of `languages`, or "" to tell it from the text.
Result<ReadJob> read_job(const ScriptLanguages& languages, std::string_view text, const std::string& origin,
                         std::string_view from, const Loader& load, IsDirectory is_directory);

}  // namespace yard::translate
