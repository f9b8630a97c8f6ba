// Pieces shared by the files of `yard submit`'s parsing (submit_options.cpp, the
// orchestration; submit_words.cpp, splitting words; submit_flags.cpp, the flags;
// submit_script.cpp, #SBATCH directives). Not for other users: submit_options.h is the
// interface.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "jobtext/script_language.h"
#include "jobtext/submit_options.h"
#include "core/batch_directives.h"

namespace yard {

// Whether a word that starts with '-' takes the next word as its value: yard's own flags
// but kFlagsWithoutValue, and sbatch's options as its table says (--wait, -W, --hold take
// none; --exclusive only glued, --exclusive=user); one glued to its flag (-n2, --mem=1G)
// is in the same word.
bool takes_value(const std::string& flag);
// yard submit's own flags that take no value (submit_flags.cpp; a test holds the two
// lists together).
inline constexpr std::string_view kFlagsWithoutValue[] = {"help", "json", "test-only", "requeue", "no-requeue"};
// The index of the first word that is not a flag, a flag's value or ':' (a script or a
// program), or words.size().
std::size_t flags_end(const std::vector<std::string>& words);
// --launcher mpirun among the flags (before any program).
bool wants_mpirun(const std::vector<std::string>& args);
// MPMD: the words split at every lone ':' into app contexts.
std::vector<std::vector<std::string>> split_app_contexts(const std::vector<std::string>& args);

// The whole job's flags (and --json, into `json`), or a later component's, whose
// `positional` catches the script given after the last component.
std::unique_ptr<CLI::App> submit_app(SubmitFlags& f, bool& json, const SubmitChoices& choices = {},
                                     const FlagFilter& want = {});
std::unique_ptr<CLI::App> component_app(ComponentFlags& f, std::vector<std::string>& positional);
Error component_error(std::size_t k, const std::string& what);

// CLI11's message for `e`, with "--mem: 1 required TEXT missing" (a flag given no
// value: --mem=, or --mem last on its #SBATCH line) said as "--mem: needs a value".
std::string parse_error_text(const CLI::ParseError& e);

// CLI11 parses argv-style arrays; keep the strings alive while it does. sbatch's options
// that yard has no flag for are taken out first (core/sbatch_options.h) into `sbatch`
// (checked and dropped when it is null), and abbreviations of every long flag spelled
// out. Throws CLI11's exceptions, a CLI::ParseError with sbatch's words for an option
// it does not know.
// `strict`: an option neither yard nor sbatch knows is an error in sbatch's words; a
// heterogeneous component's flags leave it to CLI11, whose message the caller explains.
void parse_words(CLI::App& app, const std::vector<std::string>& words, SbatchSettings* sbatch = nullptr,
                 bool strict = true);

// The script's text, read once.
Result<std::string> read_script(const std::string& path);
// `first` parsed from the command line (`groups`: its words, component by component)
// merged with the #SBATCH directives of the script `first.positional[0]`, whose text
// is `script`: the directives first, then the command line again, which wins
// (component by component).
Result<SubmitFlags> merge_script_directives(const ScriptLanguages& languages, const SubmitFlags& first,
                                            const std::vector<std::vector<std::string>>& groups,
                                            const std::string& script, bool& json);
// The same with the script's directives already read (jobtext/script_kind.h): each
// line checked on its own as sbatch does ("job.sh:4: in #JOB directives: ..."), then
// merged under the command line's words.
Result<SubmitFlags> merge_directives(const SubmitFlags& first, const std::vector<std::vector<std::string>>& groups,
                                     const ScriptDirectives& directives, bool& json);

}  // namespace yard
