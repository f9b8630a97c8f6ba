#include "translate/translate.h"

#include <filesystem>

#include "translate/script_parts.h"
#include "jobtext/directive_writer.h"

namespace yard::translate {

namespace {

// The script as a description at `output` names it: relative to the description's
// directory (the script's path as it is when the description goes to stdout).
std::string executable_for(const std::string& script_path, const std::string& output) {
  if (output.empty()) return script_path;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path script = fs::absolute(script_path, ec).lexically_normal();
  const fs::path relative = script.lexically_relative(fs::absolute(output, ec).parent_path().lexically_normal());
  return relative.empty() ? script.string() : relative.string();
}

}  // namespace

Result<Translation> translate(const ScriptLanguages& languages, const Request& request, const Loader& load,
                              IsDirectory is_directory) {
  const ScriptLanguage* to = languages.find(request.to);
  if (!to) return err("unknown scheduler '" + request.to + "' (" + joined(languages.names()) + ")");
  auto read = read_job(languages, request.text, request.origin, request.from, load, is_directory);
  if (!read) return read.failure();
  Translation t;
  t.from = read->kind;
  t.job = std::move(read->job);
  t.warnings = std::move(read->warnings);
  const std::string& origin = request.origin;
  auto warn = [&](int line, const std::string& text) {
    t.warnings.push_back(origin + (line > 0 ? ":" + std::to_string(line) : "") + ": " + text);
    ++t.losses;
  };
  const ScriptLanguage& source = *languages.find(t.from);
  const ScriptLanguage* family = languages.find(to->family());
  if (!family) return err("scheduler '" + request.to + "' reads as '" + std::string(to->family()) + "', which is unknown");
  const bool same_family = to->family() == source.family();
  // The reader's word on the body (it reads a variable of its scheduler's, which yard does
  // not set) is no news for a script that stays with its scheduler.
  if (same_family) std::erase_if(t.warnings, [&](const std::string& w) { return w.starts_with(origin + ": "); });
  const ScriptLanguage* split_as = languages.find(source.family());
  const ScriptParts parts = split_script(languages, t.job.spec.script, split_as);
  // The source's own reader read its lines in the body too, unless it reads none of this
  // script's lines (a reader that needs a comment as the first line, when there is none;
  // the translation has one).
  const bool read_by_source = same_family && source.reads_lines_of(t.job.spec.script);
  if (!read_by_source)
    if (auto lines = read_in_body(parts, t.job.spec.script, *family); !lines.empty())
      return err(t.job.script_path + ":" + std::to_string(lines[0]) + ": " + std::string(to->title()) +
                 " would read this line as a directive of its own, and the translation would not be the job (remove it" +
                 (!same_family ? ", or translate with --from " + std::string(to->family()) + ")" : ")"));
  Directives d = to->write(t.job, {executable_for(t.job.script_path, request.output), request.settings_dir});
  for (const auto& loss : d.losses) warn(loss.line, loss.what + ": " + loss.why);
  const std::string& var = t.job.submit_dir_variable;
  if (!var.empty() && to->submit_dir_variable() != var)
    warn(0, "$" + var + ": the script reads it, and " + std::string(to->title()) +
                " does not set it (the directory the job was submitted from)");
  if (!same_family && to->writes_scripts())
    for (int line : parts.body_directives)
      warn(line, "a directive after the script's first command: kept in the body as it is (translated above)");
  t.output = to->writes_scripts() ? assemble(parts, d.text, *to) : d.text;
  return t;
}

}  // namespace yard::translate
