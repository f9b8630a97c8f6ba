#include "translate/read_job.h"

#include <filesystem>

#include "core/text.h"
#include "jobtext/submit_internal.h"
#include "jobtext/script_kind.h"

namespace yard::translate {
namespace {

// For each option a directive line gave, the line (a later line wins, as its value does).
void note_lines(const ScriptDirectives& d, Job& job) {
  for (const DirectiveLine& line : d.lines) {
    if (line.component > 0) {
      job.lines.emplace("hetjob", line.number);
      continue;
    }
    SubmitFlags probe;
    SbatchSettings others;
    bool json = false;
    auto app = submit_app(probe, json, {}, FlagFilter(line.words));
    try {
      parse_words(*app, line.words, &others);
    } catch (const CLI::ParseError&) {
      continue;  // merge_directives has said why
    }
    for (const CLI::Option* o : app->get_options())
      if (o->count() > 0 && !o->get_lnames().empty()) job.lines[o->get_lnames()[0]] = line.number;
    for (const auto& [name, value] : others) job.lines[name] = line.number;
  }
}

// make_spec's message ("--mem: ...") with the line its option came from.
Error at_line(const std::string& message, const std::string& origin, const Job& job) {
  const auto dashes = message.find("--");
  if (dashes != std::string::npos) {
    const auto end = message.find_first_of(" :=", dashes);
    const int line = job.line(std::string_view(message).substr(dashes + 2, end == std::string::npos ? end : end - dashes - 2));
    if (line > 0) return err(origin + ":" + std::to_string(line) + ": " + message);
  }
  return err(origin + ": " + message);
}

// --export without the directory variable a reader added (yard submit's own doing); a list
// of that variable alone was one without ALL: NONE.
std::string without_variable(const std::string& exports, std::string_view name) {
  std::string out;
  for (std::string_view item : split(exports, ','))
    if (!starts_with(item, std::string(name) + "=")) out += (out.empty() ? "" : ",") + std::string(item);
  return !out.empty() ? out : exports.empty() ? "ALL" : "NONE";
}

// The script a description names, found beside the description.
std::string beside(const std::string& origin, const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  const std::filesystem::path dir = std::filesystem::path(origin).parent_path();
  return dir.empty() ? path : (dir / path).lexically_normal().string();
}

}  // namespace

Result<ReadJob> read_job(const ScriptLanguages& languages, std::string_view text, const std::string& origin,
                         std::string_view from, const Loader& load, IsDirectory is_directory) {
  ReadJob r;
  TranslatedDirectives d;
  std::string script(text);
  r.job.script_path = origin;
  // A job described in a file apart from its script, by the language named or told from
  // the text.
  const ScriptLanguage* describer = nullptr;
  for (const auto& l : languages.all())
    if (from.empty() ? l->is_description(text) : (l->name() == from && !l->reads_scripts())) describer = l.get();
  const ScriptLanguage* language = describer;
  if (describer) {
    auto sub = describer->read_description(text, origin);
    if (!sub) return sub.failure();
    d = std::move(sub->directives);
    r.job.script_path = beside(origin, sub->executable);
    auto loaded = load(r.job.script_path);
    if (!loaded)
      return err(origin + ":" + std::to_string(sub->executable_line) + ": executable = " + sub->executable + ": " +
                 loaded.error());
    script = std::move(*loaded);
  } else {
    auto kind = script_kind(languages, text, origin, from, "--from");
    if (!kind) return kind.failure();
    language = *kind;
    auto read = language->read_directives(text, origin, is_directory);
    if (!read) return read.failure();
    d = std::move(*read);
  }
  r.kind = language->name();
  r.warnings = std::move(d.warnings);
  // A translation runs under the target, not yard: what the script's own scheduler alone
  // provides is worth saying there too.
  r.warnings.insert(r.warnings.end(), d.outside_warnings.begin(), d.outside_warnings.end());
  SubmitFlags first;
  first.positional = {origin};
  bool json = false;
  auto merged = merge_directives(first, {{}}, d.directives, json);
  if (!merged) return merged.failure();
  Job& job = r.job;
  note_lines(d.directives, job);
  job.name_given = !merged->name.empty();
  job.options = merged->sbatch_options;
  job.chdir = merged->chdir;
  job.exports = merged->exports;
  const std::string_view var = language->submit_dir_variable();
  if (!var.empty()) {
    job.exports = without_variable(job.exports, var);
    if (script.find(var) != std::string::npos) job.submit_dir_variable = var;
  }
  // The directory need not exist here: the job runs where the target scheduler is.
  SubmitFlags f = *merged;
  f.chdir.clear();
  f.positional = {job.script_path};
  f.script_text = script;
  auto spec = make_spec(f, {});
  if (!spec) return at_line(spec.error(), origin, job);
  job.spec = std::move(*spec);
  const auto mode = job.spec.open_mode();
  job.spec.env.clear();
  job.spec.set_open_mode(mode);
  return r;
}

}  // namespace yard::translate
