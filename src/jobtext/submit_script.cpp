// A batch script's part in `yard submit`: its text, read once, and its directives
// (#SBATCH, or another scheduler's, said in sbatch's words) merged under the command
// line's flags.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "jobtext/submit_internal.h"
#include "core/batch_directives.h"
#include "core/file_text.h"
#include "jobtext/script_kind.h"

namespace yard {
namespace {

bool is_directory(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

// Which directives say what (in sbatch's words): "#SBATCH", or the other kind's prefix.
std::string kind_words(const ScriptDirectives& d) { return d.kind.empty() ? "#SBATCH" : d.kind; }

// Whether `backend` (--backend: "slurm", "slurm-steps", or another of the family) runs the
// scripts of `language`'s family under their own scheduler, which sets its own variables.
bool own_scheduler(const ScriptLanguages& languages, const ScriptLanguage& language, std::string_view backend) {
  if (backend.ends_with("-steps")) backend.remove_suffix(6);
  const ScriptLanguage* target = backend.empty() ? nullptr : languages.find(backend);
  return target && target->family() == language.family();
}

// The script's directives of the one kind it has (#SBATCH, or another scheduler's), or of
// the kind `chosen` (--directives); the other kinds' lines are then comments. `backend`
// the job's --backend, if given.
Result<ScriptDirectives> script_directives(const ScriptLanguages& languages, const std::string& script,
                                           const std::string& path, const std::string& chosen,
                                           std::string_view backend) {
  // A job description of a language that describes jobs apart from their scripts (it names
  // the script as its executable) would otherwise run as a shell script, line by line.
  if (chosen.empty() && !script.starts_with("#!"))
    for (const auto& l : languages.all())
      if (!l->reads_scripts() && l->is_description(script))
        return err(path + ": this is " + std::string(l->title()) + "'s job description, not a batch script: yard "
                   "submit runs the script it names (its executable), or `yard translate --from " +
                   std::string(l->name()) + " --to slurm " + path + "` writes one with its directives");
  auto language = script_kind(languages, script, path, chosen, "--directives");
  if (!language) return language.failure();
  auto translated = (*language)->read_directives(script, path, is_directory);
  if (!translated) return translated.failure();
  // sbatch refuses a script without a #! line; one with #SBATCH lines was written for it.
  const auto& d = translated->directives;
  if ((*language)->needs_interpreter_line() && !d.has_shebang && (!d.lines.empty() || !d.components.empty()))
    return err(path + ": this does not look like a batch script: the first line must start with #! followed by the "
               "path to an interpreter (sbatch refuses it too), e.g. #!/bin/bash");
  for (const auto& w : translated->warnings) std::cerr << "yard submit: " << w << "\n";
  if (!own_scheduler(languages, **language, backend))
    for (const auto& w : translated->outside_warnings) std::cerr << "yard submit: " << w << "\n";
  return std::move(translated->directives);
}

}  // namespace

Result<std::string> read_script(const std::string& path) {
  // A directory opens for reading and then reads as nothing: it would be an empty script
  // and end in "nothing to run", which does not say what is wrong.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return err("script '" + path + "' is a directory, not a batch script");
  auto text = read_file(path);
  if (!text) {
    const std::string why = text.error();
    if (why.rfind("cannot read ", 0) == 0) return err("cannot read script " + why.substr(std::string("cannot read ").size()));
    return err("script " + why);  // not a regular file, or too large: said whole
  }
  return text;
}

Result<SubmitFlags> merge_script_directives(const ScriptLanguages& languages, const SubmitFlags& first,
                                            const std::vector<std::vector<std::string>>& groups,
                                            const std::string& script, bool& json) {
  auto d = script_directives(languages, script, first.positional[0], first.directives, first.backend);
  if (!d) return d.failure();
  return merge_directives(first, groups, *d, json);
}

Result<SubmitFlags> merge_directives(const SubmitFlags& first, const std::vector<std::vector<std::string>>& groups,
                                     const ScriptDirectives& directives, bool& json) {
  const std::string& path = first.positional[0];
  const ScriptDirectives* d = &directives;
  if (d->words.empty() && d->components.empty()) return first;
  // Each line on its own first, as sbatch parses them: a flag's value is on its flag's
  // line (#SBATCH --mem alone must not take the next line's -J as its value), and a line
  // holds only flags; the script and its arguments come from the command line.
  for (const DirectiveLine& line : d->lines) {
    const std::string at = path + ":" + std::to_string(line.number) + ": ";
    std::vector<std::string> positional;
    try {
      if (line.component == 0) {
        SubmitFlags probe;
        parse_words(*submit_app(probe, json, {}, FlagFilter(line.words)), line.words);
        positional = probe.positional;
      } else {
        ComponentFlags probe;
        parse_words(*component_app(probe, positional), line.words, nullptr, false);
      }
    } catch (const CLI::ParseError& e) {
      return err(at + "in " + kind_words(*d) + " directives: " +
                 (line.component == 0 ? parse_error_text(e) : component_error(line.component, parse_error_text(e)).message));
    }
    if (!positional.empty()) return err(at + "invalid directive found in batch script: " + positional[0]);
  }
  SubmitFlags merged;
  std::vector<std::string> words = d->words;
  words.insert(words.end(), groups[0].begin(), groups[0].end());
  try {
    parse_words(*submit_app(merged, json, {}, FlagFilter(words)), words, &merged.sbatch_options);
  } catch (const CLI::ParseError& e) {
    return err(parse_error_text(e));
  }
  merged.positional = first.positional;
  merged.script_text = first.script_text;
  const std::size_t cli_components = groups.size() - 1;
  const std::size_t n = std::max(d->components.size(), cli_components);
  for (std::size_t k = 0; k < n; ++k) {
    std::vector<std::string> cw;
    if (k < d->components.size()) cw = d->components[k];
    if (k < cli_components) cw.insert(cw.end(), groups[k + 1].begin(), groups[k + 1].end());
    ComponentFlags c;
    std::vector<std::string> positional;
    try {
      parse_words(*component_app(c, positional), cw, &c.sbatch_options, false);
    } catch (const CLI::ParseError& e) {
      return component_error(k + 1, parse_error_text(e));
    }
    merged.components.push_back(c);
  }
  return merged;
}

}  // namespace yard
