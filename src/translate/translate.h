// `yard translate`'s work without its command line: a script read (read_job.h), its
// directives written for the target (writers.h), the script put together again with its
// body untouched (script_parts.h), and every loss said in one line naming the file and
// the line it came from.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "translate/read_job.h"

namespace yard::translate {

using jobtext::Directives;
using jobtext::Job;

struct Request {
  std::string text;    // the file's bytes
  std::string origin;  // its path, as messages name it
  std::string from;    // a language's name, or "" to tell it from the text
  std::string to;      // a language's name
  // Where the result goes ("": stdout): a description apart from the script names the
  // script relative to its own directory (as given, for stdout).
  std::string output;
  // The user's settings directory: a site's settings for the target (the parallel
  // environments in its YAML file, say) are read there; "": the target's defaults.
  std::string settings_dir;
};

struct Translation {
  std::string output;  // the script for the target, or the description of its job
  std::string from;    // the kind read
  Job job;
  // The reader's warnings and the writer's losses: "job.sh:4: --gpus 2: <target> has no
  // GPU request; left out". `losses` counts the writer's among them.
  std::vector<std::string> warnings;
  std::size_t losses = 0;
};

// `languages`: those --from and --to may name (backends/all_languages.h for the build's).
Result<Translation> translate(const ScriptLanguages& languages, const Request& request, const Loader& load,
                              IsDirectory is_directory);

}  // namespace yard::translate
